import * as z from 'zod';
import type { DomainEvent } from '#shared/domain/events/events';
import { pageFields, readNumberedPage } from '#shared/domain/paging';
import type { CardSummary, ChargeResult } from '#shared/domain/payments/gateway';
import type { PaymentMethodRepository, ScheduledChargeRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { eventsOf, statusOf } from '#shared/domain/transactions/create';
import { sellerNet, type Transaction } from '#shared/domain/transactions/transaction';
import { NotFoundError } from '#shared/errors';
import {
  type Attempt,
  type AttemptSource,
  type Cycle,
  cycleItemName,
  SCHEDULED_CHARGE_NOT_FOUND,
  type ScheduledCharge,
  toAttemptView,
} from './charge';
import type { ScheduledChargeDeps } from './deps';
import { MAX_CYCLES } from './schemas';

/** A card charge's answer, whichever path made it (the link's card form, a silent charge, a retry). */
export interface CardAnswer {
  status: 'succeeded' | 'declined' | 'errored';
  failureCode: string | null;
  failureReason: string | null;
  gatewayFailureCode: string | null;
  gatewayChargeId: number | null;
  /** The card as the attempt keeps it (its snapshot survives the method's deletion). */
  card: CardSummary | null;
  paymentMethodId: number | null;
  /** The transaction the provider's answer made; null when nothing reached the provider. */
  transaction: Transaction | null;
}

/** The canonical name of a refusal that never reached the provider (no card, no provider). */
export const notChargedAnswer = (
  outcome: 'declined' | 'error',
  failureCode: string,
  failureReason: string,
  card: CardSummary | null,
  paymentMethodId: number | null,
): CardAnswer => ({
  status: outcome === 'error' ? 'errored' : 'declined',
  failureCode,
  failureReason,
  gatewayFailureCode: null,
  gatewayChargeId: null,
  card,
  paymentMethodId,
  transaction: null,
});

/** What a card transaction of a cycle names as its product: the charge's product, else `cycleItemName`. */
function productOf(charge: ScheduledCharge, cycle: Cycle): Transaction['product'] {
  if (charge.product) return { ...charge.product, value: cycle.amount };
  return { id: 0, uuid: '', name: cycleItemName(charge, cycle), value: cycle.amount };
}

/** The transaction of a card charge of a cycle (approved: captured; declined or error: denied). */
export function cardTransaction(
  deps: Pick<ScheduledChargeDeps, 'ids'>,
  charge: ScheduledCharge,
  cycle: Cycle,
  transactionId: number,
  provider: string,
  result: Exclude<ChargeResult, { outcome: 'pending' }>,
  at: string,
): Transaction {
  const failed = result.outcome !== 'approved';
  return {
    id: transactionId,
    uuid: deps.ids.uuid(),
    tenant: charge.tenant,
    provider,
    gatewayPayId: result.gatewayPayId,
    status: statusOf(result, 'creditcard'),
    paymentMethod: 'creditcard',
    value: cycle.amount,
    valueSeller: sellerNet('creditcard', cycle.amount, 1),
    installments: 1,
    // The charge keeps no phone: the transaction shows none rather than a stale one.
    customer: { ...charge.customer, phone: '' },
    product: productOf(charge, cycle),
    pix: null,
    boleto: null,
    card: result.card,
    failureCode: failed ? result.failureCode : null,
    failureReason: failed ? result.failureReason : null,
    refunds: [],
    refundedAmount: 0,
    paidAt: failed ? null : at,
    canceledAt: null,
    deadline: null,
    metadata: {},
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    recurring: null,
    scheduledCharge: { chargeId: charge.id, cycleNumber: cycle.number },
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

/** The provider's answer as an attempt's outcome, with its transaction. */
export function answerOf(
  transaction: Transaction,
  result: Exclude<ChargeResult, { outcome: 'pending' }>,
  paymentMethodId: number | null,
): CardAnswer {
  const failed = result.outcome !== 'approved';
  return {
    status: result.outcome === 'approved' ? 'succeeded' : result.outcome === 'error' ? 'errored' : 'declined',
    failureCode: failed ? result.failureCode : null,
    failureReason: failed ? result.failureReason : null,
    gatewayFailureCode: failed ? result.gatewayFailureCode : null,
    gatewayChargeId: result.gatewayPayId,
    card: result.card,
    paymentMethodId,
    transaction,
  };
}

/** The attempt's record: what was tried, on which card (its snapshot), and how it ended. */
export function attemptRecord(
  id: number,
  chargeId: string,
  cycleNumber: number,
  attemptNumber: number,
  source: AttemptSource,
  answer: CardAnswer,
  at: string,
  status: Attempt['status'] = answer.status,
): Attempt {
  return {
    id,
    chargeId,
    cycleNumber,
    attemptNumber,
    attemptedAt: at,
    source,
    paymentMethod: 'card',
    paymentMethodId: answer.paymentMethodId,
    cardLast4: answer.card?.last4 ?? null,
    cardBrand: answer.card?.brand ?? null,
    status,
    failureCode: answer.failureCode,
    failureReason: answer.failureReason,
    gatewayFailureCode: answer.gatewayFailureCode,
    gatewayChargeId: answer.gatewayChargeId,
    transactionId: answer.transaction?.id ?? null,
  };
}

/** The transaction to write with the change, with the events a sale's transaction gets. */
export const transactionChange = (
  deps: Pick<ScheduledChargeDeps, 'ids' | 'clock'>,
  answer: CardAnswer,
): { record: Transaction; events: DomainEvent[] }[] =>
  answer.transaction ? [{ record: answer.transaction, events: eventsOf(deps, answer.transaction) }] : [];

/** GET /api/v1/scheduled-charges/{id}/attempts. */
export const attemptsQuerySchema = z
  .object({
    cycleNumber: z.coerce
      .number({ error: 'cycleNumber must be an integer of at least 1' })
      .int('cycleNumber must be an integer of at least 1')
      .min(1, 'cycleNumber must be an integer of at least 1')
      .max(MAX_CYCLES, `cycleNumber must be at most ${MAX_CYCLES}`)
      .optional(),
    ...pageFields,
  })
  .strict();
export type AttemptsQuery = z.output<typeof attemptsQuerySchema>;

/**
 * The attempt log of a charge across its cycles (or of one), newest first, paged. A saved card
 * deleted since shows `paymentMethodId` null; its last 4 and brand, taken at the attempt, stay.
 */
export async function listAttempts(
  deps: {
    scheduledCharges: Pick<ScheduledChargeRepository, 'get' | 'attempts'>;
    paymentMethods: Pick<PaymentMethodRepository, 'get'>;
  },
  tenant: Tenant,
  chargeId: string,
  query: AttemptsQuery,
) {
  const charge = await deps.scheduledCharges.get(tenant, chargeId);
  if (!charge) throw new NotFoundError(SCHEDULED_CHARGE_NOT_FOUND);
  const { items, totalCount } = await readNumberedPage(query, (at) =>
    deps.scheduledCharges.attempts(tenant, chargeId, { ...query, ...at }),
  );
  const ids = [...new Set(items.map((a) => a.paymentMethodId).filter((id): id is number => id !== null))];
  const kept = new Set<number>();
  await Promise.all(
    ids.map(async (id) => {
      if (await deps.paymentMethods.get(tenant, id)) kept.add(id);
    }),
  );
  return {
    data: items.map((a) =>
      toAttemptView({
        ...a,
        paymentMethodId: a.paymentMethodId !== null && kept.has(a.paymentMethodId) ? a.paymentMethodId : null,
      }),
    ),
    count: items.length,
    totalCount,
    totalPages: Math.ceil(totalCount / query.limit),
  };
}
