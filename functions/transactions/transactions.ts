import { classifySearch } from '#shared/domain/customers/listing';
import { createTransaction, createTransactionSchema } from '#shared/domain/transactions/create';
import {
  cancelTransaction,
  findByGatewayPayId,
  getTransaction,
  listSchema,
  listTransactions,
  refundSchema,
  refundTransaction,
} from '#shared/domain/transactions/manage';
import { handleNotification } from '#shared/domain/transactions/notifications';
import { TRANSACTION_NOT_FOUND, toTransactionView } from '#shared/domain/transactions/transaction';
import { NotFoundError } from '#shared/errors';
import { tenantOf } from '#shared/http/tenant';
import { type HttpRequest, ok } from '#shared/http/types';
import { looksLikeUuid } from '#shared/ids';
import { parseInput } from '#shared/validation';

export const manageDeps = (req: HttpRequest) => ({
  transactions: req.deps.repos.transactions,
  payments: req.deps.payments,
  clock: req.deps.clock,
  ids: req.deps.ids,
});

export async function create(req: HttpRequest) {
  const input = parseInput(createTransactionSchema, req.body);
  const view = await createTransaction(
    {
      ...manageDeps(req),
      products: req.deps.repos.products,
      customers: req.deps.repos.customers,
      scheduler: req.deps.scheduler,
      onScheduleError: (error) => req.log.error('could not schedule the pix expiry', { error }),
    },
    input,
  );
  return ok(view, 201);
}

/** Scope of X-Idempotency-Key on the public route: the seller that owns the product. */
export async function productOwnerScope(req: HttpRequest): Promise<string> {
  const productId = (req.body as { productId?: unknown } | undefined)?.productId;
  const product = looksLikeUuid(productId)
    ? await req.deps.repos.products.findByUuid(productId.toLowerCase())
    : null;
  // Without a product the request fails validation anyway; the key is scoped to the caller's IP.
  return product ? `${product.tenant.sellerId}#${product.tenant.environment}` : `ip#${req.sourceIp}`;
}

export async function list(req: HttpRequest) {
  const tenant = tenantOf(req);
  const input = parseInput(listSchema, req.query);
  const searchCustomers = async (term: string) => {
    const { items } = await req.deps.repos.customers.list(tenant, {
      search: classifySearch(term),
      overdueOnly: false,
      skip: 0,
      take: 25,
    });
    return items.map((c) => c.id);
  };
  return ok(await listTransactions(manageDeps(req), tenant, input, searchCustomers));
}

export const get = async (req: HttpRequest) =>
  ok(toTransactionView(await getTransaction(manageDeps(req), tenantOf(req), req.pathParams.id)));

/** Panel route: the path id is the gatewayPayId (spec), the answer a bare `true`. */
export async function cancelByGatewayPayId(req: HttpRequest) {
  const tenant = tenantOf(req);
  const deps = manageDeps(req);
  await cancelTransaction(deps, tenant, await findByGatewayPayId(deps, tenant, req.pathParams.id));
  return ok(true);
}

export async function refund(req: HttpRequest) {
  const deps = manageDeps(req);
  const t = await getTransaction(deps, tenantOf(req), req.pathParams.id);
  return ok(await refundTransaction(deps, t, parseInput(refundSchema, req.body ?? {})));
}

/** Public: the status string of a transaction, by the provider's id. */
export async function status(req: HttpRequest) {
  const raw = req.pathParams.gatewayPayId;
  const found = /^\d{1,15}$/.test(raw)
    ? await req.deps.repos.transactions.findByGatewayPayId(Number(raw))
    : [];
  if (found.length === 0) throw new NotFoundError(TRANSACTION_NOT_FOUND);
  return ok(found[0].status);
}

export async function notification(req: HttpRequest) {
  const result = await handleNotification(
    { ...manageDeps(req), webhookSecret: req.deps.config.gatewayWebhookSecret },
    req.rawBody,
    req.headers['x-signature'],
  );
  return ok(result, 201);
}
