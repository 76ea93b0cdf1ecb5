/**
 * The use cases of the scheduled jobs (shared/jobs.ts), imported when the first job runs: one lazy
 * chunk. Per-module imports made esbuild split the modules the entry shares with each of them into
 * as many static chunks, and each file the entry imports costs its cold start more than the bytes
 * would (docs/decisions.md, "Cold start").
 */
export { expireSessionJob, sweepSessionExpiries } from '#shared/domain/checkout/sessions';
export { recordHeartbeat } from '#shared/domain/health/health';
export { runPlanDueJob, sweepDuePlans } from '#shared/domain/installment-plans/due';
export { runExpiryStep, sweepExpirySteps } from '#shared/domain/payment-methods/expiry-steps';
export { runChargeDueJob, sweepDueCharges } from '#shared/domain/scheduled-charges/due';
export { runDueJob, sweepDueSubscriptions } from '#shared/domain/subscriptions/due';
export { sweepPixExpiries } from '#shared/domain/transactions/expiry-sweep';
export { receiveVerifiedNotification } from '#shared/domain/transactions/follow-ups';
export { expirePix, notificationOfStatus } from '#shared/domain/transactions/notifications';
export { jobInputSchema } from '#shared/job-input';
