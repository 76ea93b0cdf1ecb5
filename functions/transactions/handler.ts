import { receiveProviderNotification } from '#shared/domain/checkout/sessions';
import { notificationFollowUps } from '#shared/domain/payments/paid-follow-ups';
import { createTransaction } from '#shared/domain/transactions/create';
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
import { createHttpHandler } from '#shared/http/pipeline';
import { rawReply, reply } from '#shared/http/types';
import { transactionRoutes } from './routes';

export const handler = createHttpHandler(transactionRoutes, (c) => {
  const deps = { transactions: c.repos.transactions, payments: c.payments, clock: c.clock, ids: c.ids };
  const createDeps = {
    ...deps,
    products: c.repos.products,
    customers: c.repos.customers,
    affiliations: c.repos.affiliations,
    paymentMethods: c.repos.paymentMethods,
    scheduler: c.scheduler,
  };
  return {
    createTransaction: {
      idempotencyScope: (raw) => productOwnerScope(createDeps, raw),
      handle: async ({ body, request }) => {
        const onScheduleError = (error: unknown) =>
          request.log.error('could not schedule the pix expiry', { error });
        const onSaveCardError = (error: unknown) => request.log.error('could not save the card', { error });
        return reply(201, await createTransaction({ ...createDeps, onScheduleError, onSaveCardError }, body));
      },
    },
    listTransactions: ({ tenant, query }) => listSellerTransactions(createDeps, tenant, query),
    handleProviderNotification: async ({ request }) =>
      reply(
        201,
        await receiveProviderNotification(
          {
            ...createDeps,
            sessions: c.repos.checkoutSessions,
            // A paid Pix Automático first payment activates its subscription.
            subscriptions: c.repos.subscriptions,
            webhookSecret: c.config.gatewayWebhookSecret,
            onScheduleError: (error) => request.log.error('could not schedule a subscription job', { error }),
            // A paid transaction of a scheduled-charge cycle pays the cycle; of a carnê's boleto, the installment.
            afterPayment: notificationFollowUps(
              {
                ...createDeps,
                scheduledCharges: c.repos.scheduledCharges,
                installmentPlans: c.repos.installmentPlans,
              },
              request.log,
            ),
          },
          request.rawBody,
          request.headers['x-signature'],
        ),
      ),
    getTransactionStatus: ({ path }) => publicStatus(deps, path.gatewayPayId),
    getTransaction: ({ tenant, path }) => getTransactionView(deps, tenant, path.id),
    cancelTransactionByGatewayPayId: ({ tenant, path }) => cancelByGatewayPayId(deps, tenant, path.id),
    refundTransaction: ({ tenant, path, body }) => refundById(deps, tenant, path.id, body),
    listCharges: ({ tenant, query }) => listCharges(deps, tenant, query),
    cancelCharge: ({ tenant, path }) => cancelChargeByUuid(deps, tenant, path.uuid),
    getSandboxBoletoPdf: async ({ path, query }) =>
      rawReply(
        'application/pdf',
        await sandboxBoletoDocument({ sandbox: c.sandbox }, path.gatewayPayId, query.token),
      ),
  };
});
