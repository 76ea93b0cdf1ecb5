import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { limitQuery } from '#shared/domain/paging';
import { todayOf } from '#shared/domain/payments/late-charge-settings';
import { methodField } from '#shared/domain/payments/method-names';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import { looksLikeUuid } from '#shared/ids';
import { cancelTransaction } from './cancel';
import {
  findByGatewayPayId,
  getTransaction,
  type listSchema,
  listTransactions,
  type ManageDeps,
  type refundSchema,
  refundTransaction,
} from './manage';
import { STATUSES, TRANSACTION_NOT_FOUND, toTransactionView } from './transaction';

/** The seller's transactions, filtered; `search` matches the buyer (a word of the name, the e-mail, the document). */
export async function listSellerTransactions(
  deps: Pick<ManageDeps, 'transactions' | 'clock'>,
  tenant: Tenant,
  input: z.output<typeof listSchema>,
) {
  return listTransactions(deps, tenant, input);
}

export async function getTransactionView(
  deps: Pick<ManageDeps, 'transactions' | 'clock'>,
  tenant: Tenant,
  id: string,
) {
  return toTransactionView(await getTransaction(deps, tenant, id), todayOf(deps.clock));
}

/** Panel route: the path id is the gatewayPayId (spec). */
export async function cancelByGatewayPayId(deps: ManageDeps, tenant: Tenant, gatewayPayId: string) {
  await cancelTransaction(deps, tenant, await findByGatewayPayId(deps, tenant, gatewayPayId));
  return true as const;
}

export async function refundById(
  deps: ManageDeps,
  tenant: Tenant,
  id: string,
  input: z.output<typeof refundSchema>,
) {
  return refundTransaction(deps, await getTransaction(deps, tenant, id), input);
}

/** Public: the status string of a transaction, by the provider's id. */
export async function publicStatus(deps: Pick<ManageDeps, 'transactions'>, gatewayPayId: number) {
  const found = await deps.transactions.findByGatewayPayId(gatewayPayId);
  if (found.length === 0) throw new NotFoundError(TRANSACTION_NOT_FOUND);
  return found[0].status;
}

export const chargesQuerySchema = z.object({
  status: z.enum(STATUSES).optional(),
  paymentMethod: methodField(['pix', 'boleto', 'creditcard']).optional(),
  createdBefore: z.iso
    .datetime({ offset: true, error: 'createdBefore must be an ISO 8601 timestamp' })
    .optional(),
  limit: limitQuery,
  cursor: z.string().max(2048).optional(),
});

/** GET /api/v1/charges: cursor pages, newest first; each item carries its uuid. */
export async function listCharges(
  deps: Pick<ManageDeps, 'transactions' | 'clock'>,
  tenant: Tenant,
  q: z.output<typeof chargesQuerySchema>,
) {
  const page = await deps.transactions.list(tenant, {
    page: 1,
    limit: q.limit,
    status: q.status,
    paymentMethod: q.paymentMethod,
    createdBefore: q.createdBefore ? new Date(q.createdBefore).toISOString() : undefined,
    cursor: q.cursor,
    countTotal: false,
  });
  return {
    data: page.items.map((t) => toTransactionView(t, todayOf(deps.clock))),
    nextCursor: page.cursor ?? null,
    hasMore: Boolean(page.cursor),
  };
}

export async function cancelChargeByUuid(deps: ManageDeps, tenant: Tenant, uuid: string) {
  await cancelTransaction(deps, tenant, await deps.transactions.findByUuid(uuid));
  return { canceled: true as const };
}

/**
 * Scope of X-Idempotency-Key on the public create route: the seller that owns the product. Without
 * a product the request fails validation anyway; the key is then scoped to the caller's IP.
 */
export async function productOwnerScope(
  deps: Pick<Deps, 'products'>,
  raw: { body: unknown; sourceIp: string },
): Promise<string> {
  const productId = (raw.body as { productId?: unknown } | undefined)?.productId;
  const product = looksLikeUuid(productId) ? await deps.products.findByUuid(productId.toLowerCase()) : null;
  return product ? `${product.tenant.sellerId}#${product.tenant.environment}` : `ip#${raw.sourceIp}`;
}
