/** Sandbox (`sk_test_`) and production (`sk_live_`) data never mix: every repository takes a tenant. */
export type Environment = 'test' | 'live';

export interface Tenant {
  sellerId: number;
  environment: Environment;
}

/** Same seller and same environment: anything else is another tenant's resource. */
export const sameTenant = (a: Tenant, b: Tenant) =>
  a.sellerId === b.sellerId && a.environment === b.environment;
