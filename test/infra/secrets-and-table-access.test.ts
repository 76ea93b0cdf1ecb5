import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_NEEDS, pipelineWritesOf, secretsOf, tableGrantsOf } from '#infra/constructs/permissions';
import { functionNames, httpGroups } from '#infra/routes';
import type { Route } from '#shared/http/types';
import { SECRET_NAMES, SECRETS, type SecretName } from '#shared/secrets';
import { actionsOf, type Synthesized, statementsOfRole, synthesize } from './synth';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});
afterAll(() => s?.dispose());

type Statement = ReturnType<typeof statementsOfRole>[number] & { Condition?: unknown; Effect?: string };
const fnProps = (name: string) =>
  s.template.toJSON().Resources[s.logicalId(s.stack.functions.get(name))].Properties;
const statementsOf = (name: string) =>
  statementsOfRole(s.template, s.logicalId(s.stack.functions.roles.get(name)!)) as Statement[];
const secretIdOf = (name: SecretName) =>
  Object.entries(s.template.findResources('AWS::SecretsManager::Secret')).find(
    ([, r]) => r.Properties.Description === SECRETS[name].description,
  )?.[0] as string;
const resourcesOf = (st: Statement) =>
  (Array.isArray(st.Resource) ? st.Resource : [st.Resource]).map((r) => JSON.stringify(r));
const dynamoStatementsOf = (name: string) =>
  statementsOf(name).filter((st) => actionsOf([st]).some((a) => a.startsWith('dynamodb:')));

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('secrets', () => {
  it('puts no secret value in the template or in any function environment', () => {
    const template = JSON.stringify(s.template.toJSON());
    expect(template).not.toContain('resolve:secretsmanager');
    for (const name of functionNames) {
      for (const value of Object.values(fnProps(name).Environment.Variables)) {
        expect(JSON.stringify(value)).not.toContain('resolve:secretsmanager');
        expect(JSON.stringify(value)).not.toContain('SecretString');
      }
    }
    const unwrapped = sources('infra').filter((file) => readFileSync(file, 'utf8').includes('unsafeUnwrap'));
    expect(unwrapped).toEqual([]);
  });

  it('makes one generated secret per registry row, keeping the existing logical ids', () => {
    const made = Object.entries(s.template.findResources('AWS::SecretsManager::Secret'));
    expect(made).toHaveLength(SECRET_NAMES.length);
    for (const [, secret] of made) {
      expect(secret.Properties.GenerateSecretString).toEqual({
        PasswordLength: 64,
        ExcludePunctuation: true,
      });
    }
    expect(secretIdOf('magicLink')).toMatch(/^MagicLinkSecret/);
    expect(secretIdOf('gatewayWebhook')).toMatch(/^GatewayWebhookSecret/);
    expect(secretIdOf('boletoPdf')).toMatch(/^BoletoPdfSecret/);
  });

  it('lets only the functions that use a secret read it, and gives only them its ARN', () => {
    const holders = (secret: SecretName) =>
      functionNames.filter((fn) =>
        statementsOf(fn).some(
          (st) =>
            actionsOf([st]).includes('secretsmanager:GetSecretValue') &&
            resourcesOf(st).includes(JSON.stringify({ Ref: secretIdOf(secret) })),
        ),
      );
    const expected: Record<SecretName, string[]> = {
      magicLink: ['customer-area'],
      // Verifies the sandbox's notifications; the sandbox helpers sign them.
      gatewayWebhook: ['test-helpers', 'transactions', 'checkout'],
      // Issue sandbox boletos (their PDF link) or serve their documents (a test clock's advance issues a carnê's).
      boletoPdf: [
        'test-helpers',
        'transactions',
        'checkout',
        'scheduled-charges',
        'installment-plans',
        'charge-payments',
        'jobs',
      ],
      // Keys card fingerprints and proofs of work: the functions with a public card form.
      cardTesting: ['transactions', 'checkout', 'charge-payments', 'portal'],
    };
    for (const secret of SECRET_NAMES) {
      expect(holders(secret).sort(), secret).toEqual([...expected[secret]].sort());
      for (const fn of functionNames) {
        const variable = fnProps(fn).Environment.Variables[SECRETS[secret].arnVariable];
        if (expected[secret].includes(fn)) expect(variable).toEqual({ Ref: secretIdOf(secret) });
        else expect(variable, `${fn} ${secret}`).toBeUndefined();
      }
    }
    // No function may read any other secret of the account.
    for (const fn of functionNames) {
      const granted = statementsOf(fn)
        .filter((x) => actionsOf([x]).some((a) => a.startsWith('secretsmanager:')))
        .flatMap(resourcesOf);
      for (const resource of granted) {
        expect(SECRET_NAMES.map((n) => JSON.stringify({ Ref: secretIdOf(n) }))).toContain(resource);
      }
    }
    expect(functionNames.flatMap((fn) => secretsOf(fn)).length).toBeGreaterThan(0);
  });
});

describe('table access per function', () => {
  it('grants no wildcard action and no BatchWriteItem to any function, and Scan to the migrations alone', () => {
    for (const name of functionNames) {
      const actions = actionsOf(statementsOf(name));
      expect(
        actions.filter((a) => a.includes('*')),
        name,
      ).toEqual([]);
      if (name !== 'migrations') expect(actions, name).not.toContain('dynamodb:Scan');
      expect(actions).not.toContain('dynamodb:BatchWriteItem');
    }
  });

  it('lets the hosted pages read the table and write only their per-IP counters', () => {
    const statements = dynamoStatementsOf('pages');
    const free = statements.filter((st) => st.Condition === undefined);
    expect(actionsOf(free).sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
    const writing = statements.filter((st) => st.Condition !== undefined);
    expect(writing).toHaveLength(1);
    expect(writing[0].Action).toBe('dynamodb:UpdateItem');
    expect(writing[0].Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] },
    });
    expect(writing[0].Resource).toEqual({ 'Fn::GetAtt': [s.logicalId(s.stack.data.table), 'Arn'] });
  });

  it('gives the API reference no table access at all', () => {
    expect(dynamoStatementsOf('docs')).toEqual([]);
  });

  it('keeps read and write for the groups that change data', () => {
    for (const name of ['transactions', 'products', 'api-keys', 'customer-area']) {
      expect(actionsOf(dynamoStatementsOf(name))).toEqual(
        expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem']),
      );
    }
  });

  it('declares every read-only and table-less group against its route rows', () => {
    for (const group of httpGroups) {
      const needs = FUNCTION_NEEDS[group.name];
      if (needs && needs.table !== 'readWrite')
        expect(() => tableGrantsOf(group.name, needs, group.routes)).not.toThrow();
    }
  });
});

describe('pipeline writes derived from route rows', () => {
  const route = (overrides: Partial<Route>): Route => ({
    operationId: 'x',
    method: 'GET',
    path: '/x',
    auth: [],
    summary: 'x',
    responses: { 200: null },
    ...overrides,
  });

  it('counts public and JWT callers per principal, API keys in their own item, and keeps idempotency records', () => {
    expect(pipelineWritesOf([route({ rateLimited: false })])).toBeNull();
    expect(pipelineWritesOf([route({})])?.leadingKeys).toEqual(['RATE#*']);
    expect(pipelineWritesOf([route({ auth: ['apiKey', 'jwt'], idempotent: true })])).toEqual({
      actions: ['dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
      indexes: false,
      leadingKeys: ['RATE#*', 'APIKEY#*', 'IDEMP#*'],
    });
  });

  it('refuses a declaration the routes contradict', () => {
    expect(() => tableGrantsOf('g', { table: 'read' }, [route({ method: 'POST' })])).toThrow(
      'g is read-only but answers POST /x',
    );
    expect(() => tableGrantsOf('g', { table: 'none' }, [route({})])).toThrow(/no table write access/);
    expect(() => tableGrantsOf('g', { table: 'read' }, [route({ auth: ['portalToken'] })])).toThrow(
      /portalToken, which writes its own items/,
    );
  });
});
