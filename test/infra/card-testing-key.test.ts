import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionNames } from '#infra/routes';
import { ENV } from '#shared/config';
import { actionsOf, type Synthesized, statementsOfRole, synthesize } from './synth';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});
afterAll(() => s?.dispose());

/** The functions with a card form: the hosted checkout, POST /api/transactions, the pay links, the portal. */
const GUARDED = ['transactions', 'checkout', 'charge-payments', 'portal'];

function cardTestingSecret(): string {
  const secrets = Object.entries(s.template.findResources('AWS::SecretsManager::Secret')).filter(([, r]) =>
    String(r.Properties.Description).includes('card fingerprints'),
  );
  expect(secrets).toHaveLength(1);
  return secrets[0][0];
}

const readsSecret = (name: string, secretId: string) =>
  statementsOfRole(s.template, s.logicalId(s.stack.functions.roles.get(name)!)).some(
    (st) =>
      actionsOf([st]).includes('secretsmanager:GetSecretValue') &&
      JSON.stringify(st.Resource) === JSON.stringify({ Ref: secretId }),
  );

describe('the card-testing key', () => {
  it('is a generated secret whose ARN, never its value, is in the functions’ environment', () => {
    const id = cardTestingSecret();
    const secret = s.template.toJSON().Resources[id];
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64 });
    for (const name of functionNames) {
      const variables =
        s.template.toJSON().Resources[s.logicalId(s.stack.functions.get(name))].Properties.Environment
          .Variables;
      expect(variables[ENV.cardTestingSecretArn]).toEqual({ Ref: id });
      // No other variable names the secret (a dynamic reference would resolve its value at deploy).
      const naming = Object.entries(variables).filter(([, v]) => JSON.stringify(v).includes(`"${id}"`));
      expect(naming.map(([k]) => k)).toEqual([ENV.cardTestingSecretArn]);
    }
  });

  it('is read only by the functions that guard a public card form', () => {
    const id = cardTestingSecret();
    expect(functionNames.filter((name) => readsSecret(name, id)).sort()).toEqual([...GUARDED].sort());
  });
});
