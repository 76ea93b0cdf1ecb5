import { describe, expect, it } from 'vitest';
import { asaasUrlsOf, ENV } from '#shared/config';
import { parseConfig } from '#shared/config-schema';

/** The Asaas endpoints come from the environment: one variable for both, or one per environment. */

const base = {
  [ENV.tableName]: 'payment-service',
  [ENV.jwtIssuer]: 'https://issuer.example.com',
  [ENV.jwtClientId]: 'client',
  [ENV.jwksUrl]: 'https://issuer.example.com/.well-known/jwks.json',
  [ENV.publicBaseUrl]: 'https://api.example.com',
};
const urls = (env: Record<string, string>) => {
  const c = parseConfig({ ...base, ...env });
  return { sandbox: c.asaasSandboxUrl, production: c.asaasProductionUrl };
};

describe('the Asaas endpoints of the configuration', () => {
  it('defaults to the real API of each environment', () => {
    expect(urls({})).toEqual({
      sandbox: 'https://api-sandbox.asaas.com/v3',
      production: 'https://api.asaas.com/v3',
    });
  });

  it('points both environments at ASAAS_BASE_URL', () => {
    expect(urls({ ASAAS_BASE_URL: 'http://127.0.0.1:9999/v3' })).toEqual({
      sandbox: 'http://127.0.0.1:9999/v3',
      production: 'http://127.0.0.1:9999/v3',
    });
  });

  it('lets a per-environment variable win for its own environment (the stack sets both)', () => {
    expect(
      urls({
        ASAAS_BASE_URL: 'http://127.0.0.1:9999/v3',
        ASAAS_SANDBOX_URL: 'https://api-sandbox.asaas.com/v3',
      }),
    ).toEqual({ sandbox: 'https://api-sandbox.asaas.com/v3', production: 'http://127.0.0.1:9999/v3' });
  });

  it('refuses a URL that is not one, naming the variable', () => {
    expect(() => parseConfig({ ...base, ASAAS_BASE_URL: 'not a url' })).toThrow(/ASAAS_/);
  });

  it('reads only the variables that are set (an empty one counts as unset)', () => {
    expect(asaasUrlsOf({ ASAAS_BASE_URL: '', ASAAS_PRODUCTION_URL: 'https://x.example.com/v3' })).toEqual({
      sandbox: undefined,
      production: 'https://x.example.com/v3',
    });
  });
});
