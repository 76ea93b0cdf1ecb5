import { PROOF_HEADER } from '#shared/domain/card-testing/proof-of-work';
import { dashboardSummary } from '#shared/domain/dashboard/summary';
import { exportTransactions } from '#shared/domain/exports/transactions';
import { sellAs } from '#shared/domain/transactions/buyer-sale';
import { receiveProviderNotification } from '#shared/domain/transactions/follow-ups';
import { useProviderSignatures } from '#shared/domain/transactions/notification-verifier';
import {
  cancelByGatewayPayId,
  cancelChargeByUuid,
  getTransactionView,
  listCharges,
  listSellerTransactions,
  productOwnerScope,
  publicStatus,
  refundById,
} from '#shared/domain/transactions/queries';
import { sandboxBoletoDocument } from '#shared/domain/transactions/sandbox';
import { transactionTimeline } from '#shared/domain/transactions/timeline';
import { csvReply } from '#shared/http/csv-reply';
import { defineHandlers } from '#shared/http/pipeline';
import { rawReply, reply } from '#shared/http/types';
import { transactionRoutes } from './routes';

useProviderSignatures();

export const group = defineHandlers(transactionRoutes, ({ deps }) => ({
  createTransaction: {
    idempotencyScope: (raw) => productOwnerScope(deps, raw),
    handle: async ({ body, request, tenant }) =>
      reply(
        201,
        await sellAs({ ...deps, buyerIp: request.sourceIp, retryKey: request.retryKey }, body, {
          tenant,
          client: { ip: request.sourceIp, proof: request.headers[PROOF_HEADER] },
        }),
      ),
  },
  listTransactions: ({ tenant, query }) => listSellerTransactions(deps, tenant, query),
  exportTransactions: async ({ tenant, query }) =>
    csvReply('transacoes', await exportTransactions(deps, tenant, query), deps.clock.now()),
  getTransactionTimeline: ({ tenant, path }) => transactionTimeline(deps, tenant, path.id),
  getDashboardSummary: ({ tenant, query }) => dashboardSummary(deps, tenant, query),
  handleProviderNotification: async ({ request }) =>
    reply(201, await receiveProviderNotification(deps, request.rawBody)),
  getTransactionStatus: ({ path }) => publicStatus(deps, path.gatewayPayId),
  getTransaction: ({ tenant, path }) => getTransactionView(deps, tenant, path.id),
  cancelTransactionByGatewayPayId: ({ tenant, path }) => cancelByGatewayPayId(deps, tenant, path.id),
  refundTransaction: ({ tenant, path, body }) => refundById(deps, tenant, path.id, body),
  listCharges: ({ tenant, query }) => listCharges(deps, tenant, query),
  cancelCharge: ({ tenant, path }) => cancelChargeByUuid(deps, tenant, path.uuid),
  getSandboxBoletoPdf: async ({ path, query }) =>
    rawReply('application/pdf', await sandboxBoletoDocument(deps, path.gatewayPayId, query.token)),
}));
