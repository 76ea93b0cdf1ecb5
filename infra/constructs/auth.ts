import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  StringAttribute,
  UserPool,
  type UserPoolClient,
  VerificationEmailStyle,
} from 'aws-cdk-lib/aws-cognito';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { SELLER_CLAIM } from '#shared/auth/authenticate';
import { PASSWORD_POLICY } from '#shared/domain/identity/schemas';
import { SESSION_DAYS } from '#shared/domain/identity/session-cookie';
import type { StageSettings } from '../stages';

/** `custom:seller_id` in the ID token is the attribute `seller_id` in the pool's schema. */
const SELLER_ATTRIBUTE = SELLER_CLAIM.replace(/^custom:/, '');

/**
 * The dashboard's identity provider. Sellers sign up alone through our auth function (POST
 * /api/auth/sign-up), which alone holds the app client's secret: Cognito refuses SignUp, sign-in and
 * code calls without the secret hash, so the immutable seller id written at SignUp is ours to choose.
 * The functions verify its ID tokens themselves (issuer, `token_use` = id, audience = the client id,
 * expiry) against the pool's JWKS.
 */
export class DashboardAuth extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  /** The `iss` claim of the pool's tokens. */
  readonly issuer: string;
  readonly jwksUrl: string;

  constructor(scope: Construct, id: string, stage: StageSettings) {
    super(scope, id);
    this.userPool = new UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      // Self sign-up goes through our route only (the client secret); an operator may still AdminCreateUser.
      selfSignUpEnabled: true,
      autoVerify: { email: true },
      userVerification: {
        emailStyle: VerificationEmailStyle.CODE,
        emailSubject: 'Confirme seu e-mail',
        emailBody: 'Seu código de confirmação é {####}. Ele vale por 24 horas.',
      },
      customAttributes: {
        // A seller id is a positive integer; Cognito has no integer claims, so a digits-only string
        // that can never change after the user is created.
        [SELLER_ATTRIBUTE]: new StringAttribute({ mutable: false, minLen: 1, maxLen: 16 }),
      },
      passwordPolicy: {
        minLength: PASSWORD_POLICY.minLength,
        requireLowercase: PASSWORD_POLICY.requireLowercase,
        requireUppercase: PASSWORD_POLICY.requireUppercase,
        requireDigits: PASSWORD_POLICY.requireDigits,
        requireSymbols: PASSWORD_POLICY.requireSymbols,
        tempPasswordValidity: Duration.days(3),
      },
      // TOTP is offered at sign-up and required by the API before live money (a live key, a live
      // provider account): a sandbox-only seller may start without one. Once set, every sign-in asks.
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: stage.deletionProtection,
      removalPolicy: stage.removalPolicy,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'Essentials tier on purpose: sign-up and sign-in go through our own routes, rate limited per ' +
        'client address and per e-mail, and TOTP is required before any live money; the Plus tier ' +
        '(threat protection) is a per-user cost we revisit with the first live sellers.',
    });

    this.client = this.userPool.addClient('DashboardClient', {
      // Only our auth function talks to the pool (the browser talks to our routes), so the client is
      // confidential: its secret is what keeps anyone else from calling SignUp with a seller id.
      // USER_PASSWORD_AUTH runs server-side over TLS; the password is never stored by us.
      generateSecret: true,
      authFlows: { userPassword: true },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(SESSION_DAYS),
      readAttributes: new ClientAttributes()
        .withStandardAttributes({ email: true, emailVerified: true })
        .withCustomAttributes(SELLER_ATTRIBUTE),
      // The seller id decides whose data a token opens: immutable, so written once, at SignUp, which
      // needs the client secret only the auth function reads.
      writeAttributes: new ClientAttributes()
        .withStandardAttributes({ email: true })
        .withCustomAttributes(SELLER_ATTRIBUTE),
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is optional in the pool on purpose: the API requires TOTP before a live API key or a live ' +
        'provider account (403 second_factor_required), so a sandbox-only seller can start without one.',
    });

    const stack = Stack.of(this);
    this.issuer = `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${this.userPool.userPoolId}`;
    this.jwksUrl = `${this.issuer}/.well-known/jwks.json`;
  }

  /**
   * The auth function reads the app client's secret from the pool at run time (DescribeUserPoolClient,
   * kept in memory per container): the secret is never in the template, an environment variable or a log.
   */
  grantClientSecretRead(grantee: IGrantable): void {
    this.userPool.grant(grantee, 'cognito-idp:DescribeUserPoolClient');
  }
}
