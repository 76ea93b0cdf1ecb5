import { useProviderSignatures } from '#shared/domain/transactions/notification-verifier';
import { createHttpHandler } from '#shared/http/pipeline';
import { rawReply, reply } from '#shared/http/types';
import { once } from '#shared/once';
import { notificationDeps } from '#shared/platform/notification-deps';
import { transactionRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));
useProviderSignatures();

export const handler = createHttpHandler(transactionRoutes, (c) => {
  const deps = { transactions: c.repos.transactions, payments: c.payments, clock: c.clock, ids: c.ids };
  const createDeps = {
    ...deps,
    products: c.repos.products,
    customers: c.repos.customers,
    sessions: c.repos.checkoutSessions,
    atomically: c.atomically,
    affiliations: c.repos.affiliations,
    paymentMethods: c.repos.paymentMethods,
    scheduler: c.scheduler,
    reporter: c.reporter,
  };
  const guardDeps = { rateLimits: c.repos.rateLimits, cardKeys: c.cardKeys };
  return {
    createTransaction: {
      idempotencyScope: async (raw) => (await useCases()).productOwnerScope(createDeps, raw),
      handle: async ({ body, request, tenant }) => {
        const u = await useCases();
        return reply(
          201,
          await u.sellAs({ ...createDeps, ...guardDeps, buyerIp: request.sourceIp }, body, {
            tenant,
            client: { ip: request.sourceIp, proof: request.headers[u.PROOF_HEADER] },
          }),
        );
      },
    },
    listTransactions: async ({ tenant, query }) =>
      (await useCases()).listSellerTransactions(createDeps, tenant, query),
    handleProviderNotification: async ({ request }) => {
      const u = await useCases();
      return reply(201, await u.receiveProviderNotification(notificationDeps(c), request.rawBody));
    },
    getTransactionStatus: async ({ path }) => (await useCases()).publicStatus(deps, path.gatewayPayId),
    getTransaction: async ({ tenant, path }) => (await useCases()).getTransactionView(deps, tenant, path.id),
    cancelTransactionByGatewayPayId: async ({ tenant, path }) =>
      (await useCases()).cancelByGatewayPayId(deps, tenant, path.id),
    refundTransaction: async ({ tenant, path, body }) =>
      (await useCases()).refundById(deps, tenant, path.id, body),
    listCharges: async ({ tenant, query }) => (await useCases()).listCharges(deps, tenant, query),
    cancelCharge: async ({ tenant, path }) => (await useCases()).cancelChargeByUuid(deps, tenant, path.uuid),
    getSandboxBoletoPdf: async ({ path, query }) =>
      rawReply(
        'application/pdf',
        await (await useCases()).sandboxBoletoDocument(
          { sandbox: c.sandbox },
          path.gatewayPayId,
          query.token,
        ),
      ),
  };
});
