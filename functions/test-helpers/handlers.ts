import { emitTestEvent } from '#shared/domain/events/test-events';
import { getMail, listMail } from '#shared/domain/mail/mailbox';
import type { SandboxAction } from '#shared/domain/payments/gateway';
import { setSandboxCardOutcome, setSandboxPixAuthorization } from '#shared/domain/payments/sandbox-helpers';
import {
  advanceTestClock,
  createTestClock,
  deleteTestClock,
  getTestClock,
  listTestClocks,
} from '#shared/domain/test-clocks/test-clocks';
import type { SimulateInput } from '#shared/domain/transactions/sandbox';
import { simulateSandboxPayment } from '#shared/domain/transactions/sandbox';
import { defineHandlers } from '#shared/http/pipeline';
import { reply, type Tenant } from '#shared/http/types';
import { runJobNow } from '#shared/jobs';
import { testHelperRoutes } from './routes';

export const group = defineHandlers(testHelperRoutes, (container) => {
  const { deps } = container;
  const simulate =
    (action: SandboxAction) =>
    ({ tenant, path, body }: { tenant: Tenant; path: { id: string }; body: SimulateInput }) =>
      simulateSandboxPayment(deps, tenant, path.id, action, body);
  return {
    emitTestEvent: async ({ tenant, body }) => reply(201, await emitTestEvent(deps, tenant, body)),
    payTestTransaction: simulate('pay'),
    failTestTransaction: simulate('fail'),
    chargebackTestTransaction: simulate('chargeback'),
    reverseChargebackTestTransaction: simulate('chargeback_reversal'),
    setTestPaymentMethodOutcome: ({ tenant, path, body }) =>
      setSandboxCardOutcome(deps, tenant, path.id, body),
    approveTestPixAuthorization: ({ tenant, path }) =>
      setSandboxPixAuthorization(deps, tenant, path.id, 'approve'),
    revokeTestPixAuthorization: ({ tenant, path }) =>
      setSandboxPixAuthorization(deps, tenant, path.id, 'revoke'),
    listTestMail: ({ tenant, query }) => listMail(deps, tenant, query),
    getTestMail: ({ tenant, path }) => getMail(deps, tenant, path.id),
    createTestClock: async ({ tenant, body }) => reply(201, await createTestClock(deps, tenant, body)),
    listTestClocks: ({ tenant, query }) => listTestClocks(deps, tenant, query),
    getTestClock: ({ tenant, path }) => getTestClock(deps, tenant, path.id),
    deleteTestClock: ({ tenant, path }) => deleteTestClock(deps, tenant, path.id),
    // The clock's due work runs through the jobs' own dispatch, as the schedules fire it.
    advanceTestClock: ({ tenant, path, body }) =>
      advanceTestClock({ ...deps, runJob: (job) => runJobNow(container, job) }, tenant, path.id, body),
  };
});
