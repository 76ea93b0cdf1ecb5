import { emitTestEvent } from '#shared/domain/events/test-events';
import { getMail, listMail } from '#shared/domain/mail/mailbox';
import type { SandboxAction } from '#shared/domain/payments/gateway';
import { setSandboxCardOutcome, setSandboxPixAuthorization } from '#shared/domain/payments/sandbox-helpers';
import { type SimulateInput, simulateSandboxPayment } from '#shared/domain/transactions/sandbox';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply, type Tenant } from '#shared/http/types';
import { testHelperRoutes } from './routes';

export const handler = createHttpHandler(testHelperRoutes, (c) => {
  const deps = { transactions: c.repos.transactions, sandbox: c.sandbox };
  const simulate =
    (action: SandboxAction) =>
    ({ tenant, path, body }: { tenant: Tenant; path: { id: string }; body: SimulateInput }) =>
      simulateSandboxPayment(deps, tenant, path.id, action, body);
  return {
    emitTestEvent: async ({ tenant, body }) =>
      reply(201, await emitTestEvent({ outbox: c.repos.outbox, clock: c.clock, ids: c.ids }, tenant, body)),
    payTestTransaction: simulate('pay'),
    failTestTransaction: simulate('fail'),
    chargebackTestTransaction: simulate('chargeback'),
    reverseChargebackTestTransaction: simulate('chargeback_reversal'),
    setTestPaymentMethodOutcome: ({ tenant, path, body }) =>
      setSandboxCardOutcome(
        { paymentMethods: c.repos.paymentMethods, sandbox: c.sandbox },
        tenant,
        path.id,
        body,
      ),
    approveTestPixAuthorization: ({ tenant, path }) =>
      setSandboxPixAuthorization({ sandbox: c.sandbox }, tenant, path.id, 'approve'),
    revokeTestPixAuthorization: ({ tenant, path }) =>
      setSandboxPixAuthorization({ sandbox: c.sandbox }, tenant, path.id, 'revoke'),
    listTestMail: ({ tenant, query }) => listMail({ mailbox: c.mailbox }, tenant, query),
    getTestMail: ({ tenant, path }) => getMail({ mailbox: c.mailbox }, tenant, path.id),
  };
});
