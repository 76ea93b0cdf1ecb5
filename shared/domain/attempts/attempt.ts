import { createHash } from 'node:crypto';
import type { CheckoutMethod } from '#shared/domain/checkout/session';
import type { CreateCustomerInput } from '#shared/domain/customers/schemas';
import type { DueJob } from '#shared/domain/due-schedule';
import { jobId } from '#shared/domain/job-id';
import type { ChargeMethod, RecurringConsent } from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction, TransactionRecurrence } from '#shared/domain/transactions/transaction';
import { randomBase62 } from '#shared/ids';

/**
 * A call that can move money, written ahead of it (docs/decisions.md, "Payment attempts"):
 * `pending` before the provider is called, `settled` in the same write as what its answer made
 * (the transaction), `voided` when the reconciler found nothing at the provider under its reference.
 */
export type AttemptStatus = 'pending' | 'settled' | 'voided';

/** The scheduled job that settles or voids an attempt still pending (a crash, a timeout). */
export const ATTEMPT_RECONCILE_JOB = 'attempt-reconcile';

/** How long after an attempt is written the reconciler first asks the provider about it. */
export const RECONCILE_AFTER_MS = 2 * 60_000;
/** How long the reconciler waits again after the provider could not answer. */
export const RECONCILE_RETRY_MS = 5 * 60_000;

/**
 * What a sale's transaction is built from once the provider answered: everything the request
 * decided before the charge, so the reconciler builds the same transaction the request would have
 * (never the card: the provider's answer carries what may be shown of it).
 */
export interface SalePlan {
  transactionId: number;
  method: ChargeMethod;
  value: number;
  valueSeller: number;
  affiliate: Transaction['affiliate'];
  installments: number;
  buyer: CreateCustomerInput;
  product: Transaction['product'];
  dueDate: string | null;
  /** A boleto's fine, interest and discount (absent on attempts written before them: none). */
  lateCharges?: Transaction['lateCharges'];
  expiresAt: string | null;
  metadata: Record<string, string>;
  checkoutSessionId: string | null;
  clientReferenceId: string | null;
  /** The payment is recorded on the checkout session as this method, in the sale's own write. */
  recordOnSession: CheckoutMethod | null;
  recurring: TransactionRecurrence | null;
  saveCard: boolean;
  recurringConsent: RecurringConsent | null;
  /** Card only, what may be kept of the card when it is saved: its expiry (never the number). */
  cardExpiry: { month: number; year: number } | null;
}

/** A refund recorded on its transaction before the provider is asked to make it. */
export interface RefundPlan {
  transactionId: number;
  /** Our refund's id (`re_…`): the provider keeps it with the refund, so a lookup finds it. */
  refundId: string;
  amount: number;
}

/** A scheduled charge's cycle paid by card with the buyer at its pay link. */
export interface CyclePlan {
  chargeId: string;
  cycleNumber: number;
  transactionId: number;
  saveCard: boolean;
  cardExpiry: { month: number; year: number };
}

/** A pending charge the seller (or the checkout) asked the provider to cancel. */
export interface CancelPlan {
  transactionId: number;
}

/**
 * A pix or boleto registered at the provider for a transaction its caller writes with its own
 * aggregate (a carnê installment's boleto, a scheduled charge cycle's pix or boleto).
 */
export interface RegistrationPlan {
  transactionId: number;
  method: 'pix' | 'boleto';
  /** Whose registration it is, for the reports of an orphan. */
  of: 'installment' | 'scheduledCharge';
}

/**
 * The calls written ahead, each settled by its own reconciler (reconcile.ts, docs/decisions.md):
 * - `sale`: a sale's charge (card, pix or boleto registration);
 * - `cycle`: a scheduled charge's cycle paid by card at its link;
 * - `refund`: a refund, kept by the provider under our refund's id;
 * - `cancel`: a pending charge's cancel (asked again until the provider holds it canceled);
 * - `registration`: a pix or boleto registered for an installment or a scheduled charge's cycle.
 */
export const ATTEMPT_KINDS = ['sale', 'cycle', 'refund', 'cancel', 'registration'] as const;
export type AttemptKind = (typeof ATTEMPT_KINDS)[number];

export type PaymentAttempt = SaleAttempt | RefundAttempt | CycleAttempt | CancelAttempt | RegistrationAttempt;
export type CycleAttempt = AttemptBase & { kind: 'cycle'; plan: CyclePlan };
export type SaleAttempt = AttemptBase & { kind: 'sale'; plan: SalePlan };
export type RefundAttempt = AttemptBase & { kind: 'refund'; plan: RefundPlan };
export type CancelAttempt = AttemptBase & { kind: 'cancel'; plan: CancelPlan };
export type RegistrationAttempt = AttemptBase & { kind: 'registration'; plan: RegistrationPlan };
/** The attempt of one kind. */
export type AttemptOf<K extends AttemptKind> = Extract<PaymentAttempt, { kind: K }>;

interface AttemptBase {
  /** `att_<32 characters>`: derived from the request's idempotency key when it has one. */
  id: string;
  tenant: Tenant;
  status: AttemptStatus;
  provider: string;
  /** Our reference at the provider: the gateway id the provider's payment carries (its externalReference). */
  gatewayPayId: number;
  /** When the reconciler looks at it next; null once it is settled or voided. */
  dueAt: string | null;
  /** How it ended: `recorded` (settled), `not_at_provider` (voided). */
  outcome: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const ATTEMPT_ID = /att_[0-9A-Za-z]{32}/;

/**
 * The attempt of a request retried with the same X-Idempotency-Key, scope and body is the same
 * attempt (a hash of the middleware's claim); a request without a key gets a fresh one.
 */
export function attemptIdOf(retryKey: string | undefined): string {
  if (!retryKey) return `att_${randomBase62(32)}`;
  return `att_${createHash('sha256').update(`attempt\n${retryKey}`).digest('hex').slice(0, 32)}`;
}

/** The reconciler's due job of an attempt: one schedule name per attempt and due time. */
export const reconcileJobOf = (attempt: Pick<PaymentAttempt, 'tenant' | 'id'>): DueJob => ({
  payload: { job: ATTEMPT_RECONCILE_JOB, id: jobId(attempt.tenant, attempt.id) },
  nameAt: (dueAt) =>
    `attempt-${attempt.tenant.environment}-${attempt.id.slice(4)}-${dueAt.replace(/\D/g, '').slice(0, 14)}`,
});

/** When the reconciler first looks at an attempt written (or reopened) at `now`. */
export const reconcileDueAt = (now: Date) => new Date(now.getTime() + RECONCILE_AFTER_MS).toISOString();

/**
 * A registration's first look waits out the longest run that can still write it (a jobs Lambda's
 * 15 minutes): the reconciler cancels one nobody wrote, so it must not look while its caller is
 * still saving.
 */
export const REGISTRATION_RECONCILE_AFTER_MS = 20 * 60_000;

/** A new pending attempt of `kind`, first looked at by its reconciler `afterMs` (RECONCILE_AFTER_MS) from now. */
export function pendingAttempt<A extends PaymentAttempt>(
  fields: Pick<A, 'id' | 'tenant' | 'kind' | 'provider' | 'gatewayPayId' | 'plan'>,
  now: Date,
  afterMs = RECONCILE_AFTER_MS,
): A {
  const at = now.toISOString();
  return {
    ...fields,
    status: 'pending',
    dueAt: new Date(now.getTime() + afterMs).toISOString(),
    outcome: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  } as A;
}
