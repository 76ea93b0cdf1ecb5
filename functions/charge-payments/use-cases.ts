/**
 * The group's use cases and request schemas, imported by the handler map and the route table on
 * the group's first request: one lazy chunk per group. Per-module imports made esbuild split the
 * modules the entry shares with each of them into as many static chunks, and each file the entry
 * imports costs its cold start more than the bytes would (docs/decisions.md, "Cold start").
 */
export { PROOF_HEADER } from '#shared/domain/card-testing/proof-of-work';
export * from '#shared/domain/pages/charge-page';
export * from '#shared/domain/scheduled-charges/attempts';
export * from '#shared/domain/scheduled-charges/pay-link';
export * from '#shared/domain/scheduled-charges/pay-link-card';
export * from '#shared/domain/scheduled-charges/payment-method';
export * from '#shared/domain/scheduled-charges/schemas';
export * from './shapes';
