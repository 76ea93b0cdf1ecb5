import * as z from 'zod';
import { pageFields, readNumberedPage } from '#shared/domain/paging';
import { methodField } from '#shared/domain/payments/method-names';
import type { GatewayRouter, TransactionQuery, TransactionRepository } from '#shared/domain/ports';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { BadRequestError, isConflict, NotFoundError, ValidationError } from '#shared/errors';
import { looksLikeNumericId } from '#shared/ids';
import { reaisToCentavos } from '#shared/money';
import { parseSearch, SEARCH_READ_LIMIT } from './search';
import { canApply, refusal } from './state-machine';
import { STATUSES, TRANSACTION_NOT_FOUND, type Transaction, toTransactionView } from './transaction';
import { type TransitionDeps, transition } from './transitions';

export interface ManageDeps extends TransitionDeps {
  transactions: TransactionRepository;
  payments: GatewayRouter;
}

export async function getTransaction(deps: Pick<ManageDeps, 'transactions'>, tenant: Tenant, id: string) {
  const t = looksLikeNumericId(id) ? await deps.transactions.get(tenant, Number(id)) : null;
  if (!t) throw new NotFoundError(TRANSACTION_NOT_FOUND);
  return t;
}

/**
 * Cancels an unpaid transaction found by the provider's id (panel route) or by uuid (charges
 * API). Another tenant's transaction answers exactly like a missing one.
 */
export async function cancelTransaction(deps: ManageDeps, tenant: Tenant, t: Transaction | null) {
  if (!t || !sameTenant(t.tenant, tenant)) throw new NotFoundError(TRANSACTION_NOT_FOUND);
  const provider = deps.payments.forEnvironment(tenant.environment);
  if (t.provider !== provider.provider) {
    throw new BadRequestError(
      `This transaction was processed by another payment provider (${t.provider}); cancel it at that provider`,
      'other_provider',
    );
  }
  // Refused before the provider is asked (paid ones: "refund it instead").
  if (!canApply('cancel', t.status)) throw refusal('cancel', t);
  await provider.cancel(t.gatewayPayId);
  return transition(deps, t, 'cancel');
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
  const provider = deps.payments.byName(t.provider) ?? deps.payments.forEnvironment(t.tenant.environment);
  // The refund is recorded first (version-checked), so two concurrent refunds cannot both pass the
  // "never above what remains" rule; the provider is asked after, and a refusal undoes the record.
  const refund = {
    id: deps.ids.prefixed('re', 20),
    amount,
    reason: input.reason ?? null,
    createdAt: deps.clock.now().toISOString(),
  };
  const saved = await transition(deps, t, 'refund', { refund });
  try {
    await provider.refund(t.gatewayPayId, amount);
  } catch (error) {
    const current = saved.transaction;
    const undone = {
      ...current,
      status: t.status,
      refunds: t.refunds,
      refundedAmount: t.refundedAmount,
      updatedAt: deps.clock.now().toISOString(),
      version: current.version + 1,
    };
    // A transaction changed meanwhile is not undone over that change; the provider's error is the answer.
    await deps.transactions.save(undone, current, []).catch((undo: unknown) => {
      if (!isConflict(undo, 'changed')) throw undo;
    });
    throw error;
  }
  return toTransactionView(saved.transaction);
}

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
});

/**
 * GET /api/transactions: newest first, every filter together; `search` finds the buyer by a word of
 * the name, the e-mail or the document (search.ts), counting every match.
 */
export async function listTransactions(
  deps: Pick<ManageDeps, 'transactions'>,
  tenant: Tenant,
  input: z.output<typeof listSchema>,
) {
  const query: Omit<TransactionQuery, 'page' | 'limit'> = {
    status: input.status,
    paymentMethod: input.paymentMethod,
    productId: input.productId,
  };
  if (input.customerId !== undefined) query.customerIds = [input.customerId];
  const search = input.search === undefined ? null : parseSearch(input.search);
  if (search) query.search = search;
  const page = await readNumberedPage(input, (at) => deps.transactions.list(tenant, { ...query, ...at }));
  if (page.tooBroad)
    throw new ValidationError([
      `search matches more than ${SEARCH_READ_LIMIT} transactions; type more of the name, e-mail or document`,
    ]);
  return {
    data: page.items.map(toTransactionView),
    count: page.items.length,
    page: input.page,
    totalPages: Math.ceil(page.totalCount / input.limit),
  };
}
