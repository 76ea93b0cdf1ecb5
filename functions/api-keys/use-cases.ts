/**
 * The group's use cases and request schemas, imported by the handler map and the route table on
 * the group's first request: one lazy chunk per group. Per-module imports made esbuild split the
 * modules the entry shares with each of them into as many static chunks, and each file the entry
 * imports costs its cold start more than the bytes would (docs/decisions.md, "Cold start").
 */
export * from '#shared/domain/auth/api-key-schema';
export * from '#shared/domain/auth/api-keys';
export { createDashboardApiKey } from '#shared/domain/identity/live-gate';
// Path shapes the route table names (./routes.ts), in this group's one lazy chunk.
export { opaqueIdParam } from '#shared/domain/params';
export * from './shapes';
