/**
 * The group's use cases and request schemas, imported by the handler map and the route table on
 * the group's first request: one lazy chunk per group. Per-module imports made esbuild split the
 * modules the entry shares with each of them into as many static chunks, and each file the entry
 * imports costs its cold start more than the bytes would (docs/decisions.md, "Cold start").
 */

export { PROOF_HEADER } from '#shared/domain/card-testing/proof-of-work';
// Path shapes the route table names (./routes.ts), in this group's one lazy chunk.
export { gatewayPayIdParam, numericIdParam, uuidParam } from '#shared/domain/params';
export * from '#shared/domain/transactions/buyer-sale';
export * from '#shared/domain/transactions/create';
export * from '#shared/domain/transactions/follow-ups';
export * from '#shared/domain/transactions/manage';
export * from '#shared/domain/transactions/queries';
export * from '#shared/domain/transactions/sandbox';
export * from './shapes';
