import * as z from 'zod';
import { addDays, isCalendarDate, startOfSaoPauloDay } from '#shared/dates';
import {
  attemptIdOf,
  pendingAttempt,
  type RefundAttempt,
  reconcileJobOf,
} from '#shared/domain/attempts/attempt';
import type { Deps } from '#shared/domain/deps';
import { scheduleAtDue } from '#shared/domain/due-schedule';
import { pageFields, readNumberedPage } from '#shared/domain/paging';
import { todayOf } from '#shared/domain/payments/late-charge-settings';
import { methodField } from '#shared/domain/payments/method-names';
import type { TransactionQuery } from '#shared/domain/ports';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { AppError, BadRequestError, isConflict, NotFoundError, ValidationError } from '#shared/errors';
import { looksLikeNumericId } from '#shared/ids';
import { reaisToCentavos } from '#shared/money';
import { parseSearch, SEARCH_READ_LIMIT } from './search';
import { canApply, refusal } from './state-machine';
import {
  type Refund,
  STATUSES,
  TRANSACTION_NOT_FOUND,
  type Transaction,
  toTransactionView,
} from './transaction';
import { type TransitionDeps, transition } from './transitions';

export type ManageDeps = TransitionDeps &
  Pick<Deps, 'transactions' | 'payments' | 'attempts' | 'atomically' | 'scheduler' | 'reporter'>;

export async function getTransaction(deps: Pick<ManageDeps, 'transactions'>, tenant: Tenant, id: string) {
  const t = looksLikeNumericId(id) ? await deps.transactions.get(tenant, Number(id)) : null;
  if (!t) throw new NotFoundError(TRANSACTION_NOT_FOUND);
  return t;
}

/** The tenant's transaction with this provider id, whichever provider processed it. */
export async function findByGatewayPayId(
  deps: Pick<ManageDeps, 'transactions'>,
  tenant: Tenant,
  raw: string,
) {
  if (!looksLikeNumericId(raw)) return null;
  const found = await deps.transactions.findByGatewayPayId(Number(raw));
  return found.find((t) => sameTenant(t.tenant, tenant)) ?? null;
}

export const refundSchema = z
  .object({
    amount: z.number().positive('amount must be greater than 0').optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .strict();

/** Total or partial, exact in centavos, never above what remains; nothing left means reversed. */
export async function refundTransaction(
  deps: ManageDeps,
  t: Transaction,
  input: z.output<typeof refundSchema>,
) {
  const remaining = t.value - t.refundedAmount;
  let amount = remaining;
  if (input.amount !== undefined) {
    const centavos = reaisToCentavos(input.amount);
    if (centavos === null || centavos === 0)
      throw new ValidationError(['amount must be a positive amount with at most 2 decimal places']);
    amount = centavos;
  }
  if (!canApply('refund', t.status)) throw refusal('refund', t);
  if (amount > remaining) {
    throw new BadRequestError(
      `amount exceeds what can still be refunded (${(remaining / 100).toFixed(2)})`,
      'refund_exceeds_remaining',
    );
  }
  // Written ahead (docs/decisions.md, "Payment attempts"): the refund is recorded on the transaction
  // (version-checked, so two concurrent refunds cannot both pass "never above what remains") in one
  // write with its pending attempt; the provider is asked after, under the refund's id.
  const now = deps.clock.now();
  const refund = {
    id: deps.ids.prefixed('re', 20),
    amount,
    reason: input.reason ?? null,
    createdAt: now.toISOString(),
  };
  const attempt = refundAttemptOf(t, refund, now);
  const saved = await deps.atomically(async () => {
    const written = await transition(deps, t, 'refund', { refund });
    await deps.attempts.create(attempt);
    return written;
  });
  const provider = providerOf(deps, t);
  try {
    await Promise.all([
      provider.refund(t.gatewayPayId, amount, refund.id),
      scheduleAtDue(deps, reconcileJobOf(attempt), attempt.dueAt),
    ]);
  } catch (error) {
    // Unanswered (a timeout, a provider down): the refund stays recorded, and its reconciler makes it.
    if (!refused(error)) throw error;
    await undoRefund(deps, t, saved.transaction, attempt);
    throw error;
  }
  // The attempt's settle is its reconciler's (it finds the refund held under its id), off the
  // caller's wait: the refund costs the rate count, the read and one write.
  return toTransactionView(saved.transaction);
}

export const providerOf = (deps: Pick<ManageDeps, 'payments'>, t: Transaction) =>
  deps.payments.byName(t.provider) ?? deps.payments.forEnvironment(t.tenant.environment);

/** The provider answered and said no (a 4xx): nothing was refunded there. */
export const refused = (error: unknown) => error instanceof AppError && error.statusCode < 500;

function refundAttemptOf(t: Transaction, refund: Refund, now: Date): RefundAttempt {
  return pendingAttempt<RefundAttempt>(
    {
      id: attemptIdOf(undefined),
      tenant: t.tenant,
      kind: 'refund',
      provider: t.provider,
      gatewayPayId: t.gatewayPayId,
      plan: { transactionId: t.id, refundId: refund.id, amount: refund.amount },
    },
    now,
  );
}

/** A refusal undoes the record, unless the transaction changed meanwhile; the attempt is voided. */
async function undoRefund(
  deps: ManageDeps,
  before: Transaction,
  current: Transaction,
  attempt: RefundAttempt,
) {
  const undone = {
    ...current,
    status: before.status,
    refunds: before.refunds,
    refundedAmount: before.refundedAmount,
    updatedAt: deps.clock.now().toISOString(),
    version: current.version + 1,
  };
  await deps.transactions.save(undone, current, []).catch((undo: unknown) => {
    if (!isConflict(undo, 'changed')) throw undo;
  });
  await deps.attempts.void(attempt, deps.clock.now().toISOString()).catch((error) => {
    deps.reporter.error('could not void a refund attempt', error, { id: attempt.id });
  });
}

/**
 * The reconciler's part for a refund still pending: the provider holds it under the refund's id
 * (the answer was lost), or it is made now; then the attempt settles. A provider that refuses it
 * (the charge was charged back meanwhile) voids it, reported: the transaction keeps the refund the
 * seller asked for, and the daily reconciliation shows the difference.
 */
export async function completeRefund(
  deps: ManageDeps,
  attempt: RefundAttempt,
): Promise<'settled' | 'voided'> {
  const { plan } = attempt;
  const provider =
    deps.payments.byName(attempt.provider) ?? deps.payments.forEnvironment(attempt.tenant.environment);
  try {
    if (!(await provider.refundHeld(attempt.gatewayPayId, plan.refundId)))
      await provider.refund(attempt.gatewayPayId, plan.amount, plan.refundId);
  } catch (error) {
    if (!refused(error)) throw error;
    deps.reporter.error('the provider refused a recorded refund', error, { id: attempt.id });
    await deps.attempts.void(attempt, deps.clock.now().toISOString());
    return 'voided';
  }
  await deps.attempts.settle(attempt, deps.clock.now().toISOString());
  return 'settled';
}

const calendarDay = (field: string) =>
  z.string().refine(isCalendarDate, `${field} must be a date YYYY-MM-DD`);

export const listSchema = z.object({
  ...pageFields,
  status: z.enum(STATUSES).optional(),
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'The buyer: the start of any word of the name, of the e-mail or of the document; case and accents ignored',
    ),
  paymentMethod: methodField(['pix', 'boleto', 'creditcard']).optional(),
  productId: z.coerce.number().int().positive().optional(),
  customerId: z.coerce.number().int().positive().optional(),
  from: calendarDay('from').optional().describe('Created on or after this day (YYYY-MM-DD, Sao Paulo)'),
  to: calendarDay('to').optional().describe('Created on or before this day (YYYY-MM-DD, Sao Paulo)'),
  cursor: z
    .string()
    .max(2048)
    .optional()
    .describe('`nextCursor` of the previous page: pages by cursor instead of `page` (no totals then)'),
});

/**
 * The list's filters as a repository query: the date range becomes the instants its Sao Paulo days
 * start at (`to` included whole). Shared by the list and its CSV export.
 */
export function transactionQueryOf(
  input: Omit<z.output<typeof listSchema>, 'page' | 'limit' | 'cursor'>,
): Omit<TransactionQuery, 'page' | 'limit'> {
  if (input.from !== undefined && input.to !== undefined && input.from > input.to)
    throw new ValidationError(['from must not be after to']);
  const query: Omit<TransactionQuery, 'page' | 'limit'> = {
    status: input.status,
    paymentMethod: input.paymentMethod,
    productId: input.productId,
  };
  if (input.customerId !== undefined) query.customerIds = [input.customerId];
  if (input.from !== undefined) query.createdFrom = startOfSaoPauloDay(input.from).toISOString();
  if (input.to !== undefined) query.createdBefore = startOfSaoPauloDay(addDays(input.to, 1)).toISOString();
  const search = input.search === undefined ? null : parseSearch(input.search);
  if (search) query.search = search;
  return query;
}

export const SEARCH_TOO_BROAD = `search matches more than ${SEARCH_READ_LIMIT} transactions; type more of the name, e-mail or document`;

/**
 * GET /api/transactions: newest first, every filter together; `search` finds the buyer by a word of
 * the name, the e-mail or the document (search.ts), counting every match. Numbered pages answer
 * their totals; cursor pages (`cursor`) read no total and answer `page` and `totalPages` null.
 */
export async function listTransactions(
  deps: Pick<ManageDeps, 'transactions' | 'clock'>,
  tenant: Tenant,
  input: z.output<typeof listSchema>,
) {
  const query = transactionQueryOf(input);
  if (input.cursor !== undefined) {
    const page = await deps.transactions.list(tenant, {
      ...query,
      page: 1,
      limit: input.limit,
      cursor: input.cursor,
      countTotal: false,
    });
    if (page.tooBroad) throw new ValidationError([SEARCH_TOO_BROAD]);
    return {
      data: page.items.map((t) => toTransactionView(t, todayOf(deps.clock))),
      count: page.items.length,
      page: null,
      totalPages: null,
      nextCursor: page.cursor ?? null,
    };
  }
  const page = await readNumberedPage(input, (at) => deps.transactions.list(tenant, { ...query, ...at }));
  if (page.tooBroad) throw new ValidationError([SEARCH_TOO_BROAD]);
  return {
    data: page.items.map((t) => toTransactionView(t, todayOf(deps.clock))),
    count: page.items.length,
    page: input.page as number | null,
    totalPages: Math.ceil(page.totalCount / input.limit) as number | null,
    nextCursor: page.cursor ?? null,
  };
}
