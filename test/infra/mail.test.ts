import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addServiceStacks } from '#infra/app';
import { DEFAULT_MAIL_DOMAIN, mailDomainOf } from '#infra/constructs/mail';
import { functionNames } from '#infra/routes';
import { ENV } from '#shared/config';
import { EVENT_SOURCE } from '#shared/domain/events/events';
import { actionsOf, type Synthesized, statementsOfRole, synthesize } from './synth';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});
afterAll(() => s?.dispose());

const fnId = (name: string) => s.logicalId(s.stack.functions.get(name));
const roleOf = (name: string) => s.logicalId(s.stack.functions.roles.get(name)!);
const identityId = () => s.logicalId(s.stack.mail.identity);
const configSetId = () => s.logicalId(s.stack.mail.configurationSet);

describe('SES sender identity and configuration set', () => {
  it('verifies the default sender domain with Easy DKIM, using the configuration set by default', () => {
    s.template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: DEFAULT_MAIL_DOMAIN,
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: configSetId() } },
    });
  });

  it('requires TLS, keeps reputation metrics and suppresses bounces and complaints', () => {
    s.template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    s.template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      ReputationOptions: { ReputationMetricsEnabled: true },
      SendingOptions: { SendingEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
  });

  it('outputs the three DKIM records to publish', () => {
    const outputs = Object.keys(s.template.toJSON().Outputs).filter((k) => k.includes('DkimRecord'));
    expect(outputs).toHaveLength(3);
  });

  it('tells every function the From address and the configuration set', () => {
    for (const name of functionNames) {
      const vars = s.template.toJSON().Resources[fnId(name)].Properties.Environment.Variables;
      expect(vars[ENV.mailFrom]).toBe(`nao-responda@${DEFAULT_MAIL_DOMAIN}`);
      expect(vars[ENV.mailConfigurationSet]).toEqual({ Ref: configSetId() });
    }
  });

  it('takes the sender domain from the mailDomain context value, and refuses one that is not a domain', () => {
    const app = new App({ context: { mailDomain: 'Recibos.Loja.com.br' } });
    const template = Template.fromStack(addServiceStacks(app).service);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'recibos.loja.com.br' });
    const bad = new App({ context: { mailDomain: 'not a domain' } });
    expect(() => mailDomainOf(bad)).toThrow(/mailDomain must be a domain name/);
    expect(mailDomainOf(new App(), { MAIL_DOMAIN: 'mail.example.org' })).toBe('mail.example.org');
  });
});

describe('receipts', () => {
  it('sends confirmed payments from the service bus to the notifications function', () => {
    s.template.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: s.logicalId(s.stack.asyncInfra.bus) },
      EventPattern: { source: [EVENT_SOURCE], 'detail-type': ['transaction.payment.succeeded'] },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId('notifications'), 'Arn'] } })],
    });
  });

  it('lets only the functions that mail customers or team members send it (portal, scheduled-charge reminders, minha-área links, receipts, team invitations): from the sender address, via identity and configuration set', () => {
    const senders = functionNames.filter((n) =>
      actionsOf(statementsOfRole(s.template, roleOf(n))).some((a) => a.startsWith('ses:')),
    );
    expect(senders).toEqual([
      'scheduled-charges',
      'portal',
      'customer-area',
      'auth',
      'jobs',
      'notifications',
    ]);
    const arn = (resource: string, ref: string) => ({
      'Fn::Join': ['', ['arn:aws:ses:sa-east-1:', { Ref: 'AWS::AccountId' }, `:${resource}/`, { Ref: ref }]],
    });
    for (const sender of senders) {
      const statement = statementsOfRole(s.template, roleOf(sender)).find((st) =>
        actionsOf([st]).includes('ses:SendEmail'),
      );
      expect(statement).toEqual({
        Action: 'ses:SendEmail',
        Effect: 'Allow',
        Resource: expect.arrayContaining([
          arn('identity', identityId()),
          arn('configuration-set', configSetId()),
        ]),
        Condition: { StringEquals: { 'ses:FromAddress': `nao-responda@${DEFAULT_MAIL_DOMAIN}` } },
      });
      expect((statement as { Resource: unknown[] }).Resource).toHaveLength(2);
    }
  });

  it('gives the notifications function the table (its once-per-event markers) and nothing that publishes', () => {
    const statements = statementsOfRole(s.template, roleOf('notifications'));
    const actions = actionsOf(statements);
    expect(actions).toContain('dynamodb:PutItem');
    expect(actions).not.toContain('events:PutEvents');
    // Its only queue is its own on-failure destination, which Lambda writes on its behalf.
    const failures = s.logicalId(s.stack.asyncInfra.failureQueues.get('notifications')!);
    const sqsResources = statements
      .filter((st) => actionsOf([st]).some((a) => a.startsWith('sqs:')))
      .map((st) => st.Resource);
    expect(sqsResources).toEqual([{ 'Fn::GetAtt': [failures, 'Arn'] }]);
  });
});
