import type { SandboxAction } from '#shared/domain/payments/gateway';
import type { SimulateInput } from '#shared/domain/transactions/sandbox';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply, type Tenant } from '#shared/http/types';
import { testHelperRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const eventsTestEvents = () => import('#shared/domain/events/test-events');
const mailMailbox = () => import('#shared/domain/mail/mailbox');
const paymentsSandboxHelpers = () => import('#shared/domain/payments/sandbox-helpers');
const transactionsSandbox = () => import('#shared/domain/transactions/sandbox');

export const handler = createHttpHandler(testHelperRoutes, (c) => {
  const deps = { transactions: c.repos.transactions, sandbox: c.sandbox };
  const simulate =
    (action: SandboxAction) =>
    async ({ tenant, path, body }: { tenant: Tenant; path: { id: string }; body: SimulateInput }) =>
      (await transactionsSandbox()).simulateSandboxPayment(deps, tenant, path.id, action, body);
  return {
    emitTestEvent: async ({ tenant, body }) =>
      reply(
        201,
        await (await eventsTestEvents()).emitTestEvent(
          { outbox: c.repos.outbox, clock: c.clock, ids: c.ids },
          tenant,
          body,
        ),
      ),
    payTestTransaction: simulate('pay'),
    failTestTransaction: simulate('fail'),
    chargebackTestTransaction: simulate('chargeback'),
    setTestPaymentMethodOutcome: async ({ tenant, path, body }) =>
      (await paymentsSandboxHelpers()).setSandboxCardOutcome(
        { paymentMethods: c.repos.paymentMethods, sandbox: c.sandbox },
        tenant,
        path.id,
        body,
      ),
    approveTestPixAuthorization: async ({ tenant, path }) =>
      (await paymentsSandboxHelpers()).setSandboxPixAuthorization(
        { sandbox: c.sandbox },
        tenant,
        path.id,
        'approve',
      ),
    revokeTestPixAuthorization: async ({ tenant, path }) =>
      (await paymentsSandboxHelpers()).setSandboxPixAuthorization(
        { sandbox: c.sandbox },
        tenant,
        path.id,
        'revoke',
      ),
    listTestMail: async ({ tenant, query }) =>
      (await mailMailbox()).listMail({ mailbox: c.mailbox }, tenant, query),
    getTestMail: async ({ tenant, path }) =>
      (await mailMailbox()).getMail({ mailbox: c.mailbox }, tenant, path.id),
  };
});
