import { createHttpHandler } from '#shared/http/pipeline';
import { rawReply, reply } from '#shared/http/types';
import { transactionRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const sessions = () => import('#shared/domain/checkout/sessions');
const followUps = () => import('#shared/domain/payments/paid-follow-ups');
const create = () => import('#shared/domain/transactions/create');
const queries = () => import('#shared/domain/transactions/queries');
const sandbox = () => import('#shared/domain/transactions/sandbox');

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
      idempotencyScope: async (raw) => (await queries()).productOwnerScope(createDeps, raw),
      handle: async ({ body, request }) => {
        const onScheduleError = (error: unknown) =>
          request.log.error('could not schedule the pix expiry', { error });
        const onSaveCardError = (error: unknown) => request.log.error('could not save the card', { error });
        return reply(
          201,
          await (await create()).createTransaction({ ...createDeps, onScheduleError, onSaveCardError }, body),
        );
      },
    },
    listTransactions: async ({ tenant, query }) =>
      (await queries()).listSellerTransactions(createDeps, tenant, query),
    handleProviderNotification: async ({ request }) =>
      reply(
        201,
        await (await sessions()).receiveProviderNotification(
          {
            ...createDeps,
            sessions: c.repos.checkoutSessions,
            // A paid Pix Automático first payment activates its subscription.
            subscriptions: c.repos.subscriptions,
            webhookSecret: c.config.gatewayWebhookSecret,
            onScheduleError: (error) => request.log.error('could not schedule a subscription job', { error }),
            // A paid transaction of a scheduled-charge cycle pays the cycle; of a carnê's boleto, the installment.
            afterPayment: (await followUps()).notificationFollowUps(
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
    getTransactionStatus: async ({ path }) => (await queries()).publicStatus(deps, path.gatewayPayId),
    getTransaction: async ({ tenant, path }) => (await queries()).getTransactionView(deps, tenant, path.id),
    cancelTransactionByGatewayPayId: async ({ tenant, path }) =>
      (await queries()).cancelByGatewayPayId(deps, tenant, path.id),
    refundTransaction: async ({ tenant, path, body }) =>
      (await queries()).refundById(deps, tenant, path.id, body),
    listCharges: async ({ tenant, query }) => (await queries()).listCharges(deps, tenant, query),
    cancelCharge: async ({ tenant, path }) => (await queries()).cancelChargeByUuid(deps, tenant, path.uuid),
    getSandboxBoletoPdf: async ({ path, query }) =>
      rawReply(
        'application/pdf',
        await (await sandbox()).sandboxBoletoDocument({ sandbox: c.sandbox }, path.gatewayPayId, query.token),
      ),
  };
});
