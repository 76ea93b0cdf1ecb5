/**
 * The group's use cases and request schemas, imported by the handler map and the route table on
 * the group's first request: one lazy chunk per group (docs/decisions.md, "Cold start").
 */
export * from '#shared/domain/identity/accounts';
export * from '#shared/domain/identity/schemas';
export * from '#shared/domain/identity/session-cookie';
