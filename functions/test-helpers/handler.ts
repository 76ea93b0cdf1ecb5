import type { SandboxAction } from '#shared/domain/payments/gateway';
import type { SimulateInput } from '#shared/domain/transactions/sandbox';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply, type Tenant } from '#shared/http/types';
import { once } from '#shared/once';
import { testHelperRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(testHelperRoutes, (c) => {
  const deps = { transactions: c.repos.transactions, sandbox: c.sandbox };
  const simulate =
    (action: SandboxAction) =>
    async ({ tenant, path, body }: { tenant: Tenant; path: { id: string }; body: SimulateInput }) =>
      (await useCases()).simulateSandboxPayment(deps, tenant, path.id, action, body);
  return {
    emitTestEvent: async ({ tenant, body }) =>
      reply(
        201,
        await (await useCases()).emitTestEvent(
          { outbox: c.repos.outbox, clock: c.clock, ids: c.ids },
          tenant,
          body,
        ),
      ),
    payTestTransaction: simulate('pay'),
    failTestTransaction: simulate('fail'),
    chargebackTestTransaction: simulate('chargeback'),
    reverseChargebackTestTransaction: simulate('chargeback_reversal'),
    setTestPaymentMethodOutcome: async ({ tenant, path, body }) =>
      (await useCases()).setSandboxCardOutcome(
        { paymentMethods: c.repos.paymentMethods, sandbox: c.sandbox },
        tenant,
        path.id,
        body,
      ),
    approveTestPixAuthorization: async ({ tenant, path }) =>
      (await useCases()).setSandboxPixAuthorization({ sandbox: c.sandbox }, tenant, path.id, 'approve'),
    revokeTestPixAuthorization: async ({ tenant, path }) =>
      (await useCases()).setSandboxPixAuthorization({ sandbox: c.sandbox }, tenant, path.id, 'revoke'),
    listTestMail: async ({ tenant, query }) =>
      (await useCases()).listMail({ mailbox: c.mailbox }, tenant, query),
    getTestMail: async ({ tenant, path }) =>
      (await useCases()).getMail({ mailbox: c.mailbox }, tenant, path.id),
  };
});
