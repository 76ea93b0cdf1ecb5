import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  StringAttribute,
  UserPool,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { SELLER_CLAIM } from '#shared/auth/authenticate';
import type { StageSettings } from '../stages';

/** `custom:seller_id` in the ID token is the attribute `seller_id` in the pool's schema. */
const SELLER_ATTRIBUTE = SELLER_CLAIM.replace(/^custom:/, '');

/**
 * The dashboard's identity provider. The functions verify its ID tokens themselves (issuer,
 * `token_use` = id, audience = the client id, expiry) against the pool's JWKS.
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
      // Sellers are onboarded by us (AdminCreateUser sets the seller id); nobody signs up alone.
      selfSignUpEnabled: false,
      customAttributes: {
        // A seller id is a positive integer; Cognito has no integer claims, so a digits-only string
        // that can never change after the user is created.
        [SELLER_ATTRIBUTE]: new StringAttribute({ mutable: false, minLen: 1, maxLen: 16 }),
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // The dashboard moves money (refunds, API keys): a stolen password alone must not be enough.
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: stage.deletionProtection,
      removalPolicy: stage.removalPolicy,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'Essentials tier on purpose: the dashboard has a handful of seller users, sign-up is closed and ' +
        'TOTP MFA is required; the Plus tier (threat protection) is a per-user cost we revisit before ' +
        'opening the dashboard to self-service.',
    });

    this.client = this.userPool.addClient('DashboardClient', {
      // A browser app cannot keep a secret.
      generateSecret: false,
      authFlows: { userSrp: true },
      preventUserExistenceErrors: true,
      idTokenValidity: Duration.hours(1),
      readAttributes: new ClientAttributes()
        .withStandardAttributes({ email: true, emailVerified: true })
        .withCustomAttributes(SELLER_ATTRIBUTE),
      // The seller id decides whose data a token opens: the client must never be able to write it.
      writeAttributes: new ClientAttributes().withStandardAttributes({ email: true }),
    });

    const stack = Stack.of(this);
    this.issuer = `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${this.userPool.userPoolId}`;
    this.jwksUrl = `${this.issuer}/.well-known/jwks.json`;
  }
}
