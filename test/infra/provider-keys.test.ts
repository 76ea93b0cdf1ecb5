import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '#shared/config';
import { actionsOf, type Synthesized, statementsOfRole, synthesize } from './synth';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});
afterAll(() => s?.dispose());

const roleActions = (name: string) =>
  actionsOf(statementsOfRole(s.template, s.logicalId(s.stack.functions.roles.get(name)!)));

describe('the provider-keys KMS key (issue 16)', () => {
  it('is one rotated key, retained with the stack', () => {
    const keys = Object.values(s.template.findResources('AWS::KMS::Key')) as {
      Properties: Record<string, unknown>;
      DeletionPolicy?: string;
    }[];
    const providerKeys = keys.filter((k) => String(k.Properties.Description).includes('provider API keys'));
    expect(providerKeys).toHaveLength(1);
    expect(providerKeys[0].Properties.EnableKeyRotation).toBe(true);
    expect(providerKeys[0].DeletionPolicy).toBe('Retain');
  });

  it('is named to the functions by PROVIDER_KEY_ID', () => {
    const fn = s.template.toJSON().Resources[s.logicalId(s.stack.functions.get('provider-connections'))];
    expect(fn.Properties.Environment.Variables[ENV.providerKeyId]).toBeDefined();
  });

  it('lets provider-connections encrypt, the charging functions only decrypt, and others nothing', () => {
    expect(roleActions('provider-connections')).toEqual(
      expect.arrayContaining(['kms:Encrypt', 'kms:Decrypt']),
    );
    for (const name of ['transactions', 'checkout', 'subscriptions', 'installment-plans', 'jobs']) {
      expect(roleActions(name)).toContain('kms:Decrypt');
      expect(roleActions(name)).not.toContain('kms:Encrypt');
    }
    expect(roleActions('products').some((a) => a.startsWith('kms:'))).toBe(false);
  });

  it('lets scheduled-charges seal a WhatsApp token, and the reminder senders send SMS', () => {
    expect(roleActions('scheduled-charges')).toEqual(expect.arrayContaining(['kms:Encrypt', 'kms:Decrypt']));
    for (const name of ['scheduled-charges', 'jobs'])
      expect(roleActions(name)).toContain('sms-voice:SendTextMessage');
    expect(roleActions('products')).not.toContain('sms-voice:SendTextMessage');
  });
});
