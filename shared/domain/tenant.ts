/** Sandbox (`sk_test_`) and production (`sk_live_`) data never mix: every repository takes a tenant. */
export type Environment = 'test' | 'live';

export interface Tenant {
  sellerId: number;
  environment: Environment;
}
