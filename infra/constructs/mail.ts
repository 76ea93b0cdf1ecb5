import { CfnOutput, Stack } from 'aws-cdk-lib';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import {
  ConfigurationSet,
  ConfigurationSetTlsPolicy,
  EmailIdentity,
  Identity,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/** The sender domain when none is given (`-c mailDomain=…` or MAIL_DOMAIN): deploys, but sends nothing until verified. */
export const DEFAULT_MAIL_DOMAIN = 'pagamentos.example.com';

/** Every message leaves from this local part of the sender domain. */
export const mailFromOf = (domain: string) => `nao-responda@${domain}`;

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The sender domain: the `mailDomain` context value, else MAIL_DOMAIN, else the default. */
export function mailDomainOf(
  scope: Construct,
  env: Record<string, string | undefined> = process.env,
): string {
  const value = String(scope.node.tryGetContext('mailDomain') ?? env.MAIL_DOMAIN ?? DEFAULT_MAIL_DOMAIN)
    .trim()
    .toLowerCase();
  if (!DOMAIN.test(value)) throw new Error(`mailDomain must be a domain name such as ${DEFAULT_MAIL_DOMAIN}`);
  return value;
}

/**
 * Amazon SES for live mail (docs/decisions.md, "E-mail"): a domain identity with Easy DKIM (its
 * three CNAME records are stack outputs; SES sends from the domain once they are published) and a
 * configuration set that requires TLS, keeps reputation metrics and suppresses addresses that
 * bounced or complained. Sandbox tenants' mail never goes through SES.
 */
export class MailInfra extends Construct {
  readonly domain: string;
  readonly fromAddress: string;
  readonly identity: EmailIdentity;
  readonly configurationSet: ConfigurationSet;

  constructor(scope: Construct, id: string, props: { domain: string }) {
    super(scope, id);
    this.domain = props.domain;
    this.fromAddress = mailFromOf(props.domain);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      tlsPolicy: ConfigurationSetTlsPolicy.REQUIRE,
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.identity = new EmailIdentity(this, 'Identity', {
      identity: Identity.domain(props.domain),
      configurationSet: this.configurationSet,
    });
    this.identity.dkimRecords.forEach((record, i) => {
      new CfnOutput(this, `DkimRecord${i + 1}`, {
        description: `DKIM CNAME ${i + 1} of 3 to publish for ${props.domain}`,
        value: `${record.name} CNAME ${record.value}`,
      });
    });
  }

  /** The configuration set's ARN (SendEmail is authorized on it as well as on the identity). */
  get configurationSetArn(): string {
    return Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
  }

  /** ses:SendEmail from the stack's sender address only, through its identity and configuration set. */
  grantSend(role: Role): void {
    role.addToPolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [this.identity.emailIdentityArn, this.configurationSetArn],
        conditions: { StringEquals: { 'ses:FromAddress': this.fromAddress } },
      }),
    );
  }
}
