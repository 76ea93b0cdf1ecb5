/**
 * The group's use cases and request schemas, imported by the handler map and the route table on
 * the group's first request: one lazy chunk per group. Per-module imports made esbuild split the
 * modules the entry shares with each of them into as many static chunks, and each file the entry
 * imports costs its cold start more than the bytes would (docs/decisions.md, "Cold start").
 */
export * from '#shared/domain/installment-plans/actions';
export * from '#shared/domain/installment-plans/create';
export * from '#shared/domain/installment-plans/payments';
export * from '#shared/domain/installment-plans/queries';
export * from '#shared/domain/installment-plans/schemas';
export * from './shapes';
