/**
 * The group's use cases and request schemas, imported by the handler map and the route table on
 * the group's first request: one lazy chunk per group. Per-module imports made esbuild split the
 * modules the entry shares with each of them into as many static chunks, and each file the entry
 * imports costs its cold start more than the bytes would (docs/decisions.md, "Cold start").
 */
export * from '#shared/domain/checkout/sessions';
export { connectLiveProvider } from '#shared/domain/identity/live-gate';
export * from '#shared/domain/payments/paid-follow-ups';
export * from '#shared/domain/provider-connections/connections';
export * from '#shared/domain/provider-connections/notifications';
