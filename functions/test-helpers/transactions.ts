import * as z from 'zod';
import type { SandboxAction, SandboxGateway } from '#shared/adapters/sandbox-gateway/sandbox-gateway';
import { getTransaction } from '#shared/domain/transactions/manage';
import { toTransactionView } from '#shared/domain/transactions/transaction';
import { ForbiddenError } from '#shared/errors';
import { tenantOf } from '#shared/http/tenant';
import type { HttpRequest } from '#shared/http/types';
import { parseInput } from '#shared/validation';

const failBody = z.object({ failureCode: z.string().min(1).max(100).optional() }).strict();

/**
 * The sandbox pays, fails or charges back its own charge and notifies the service through the
 * signed webhook route, so a sandbox payment walks the same path a real provider's would.
 */
function simulate(action: SandboxAction) {
  return async (req: HttpRequest) => {
    const tenant = tenantOf(req);
    if (tenant.environment !== 'test')
      throw new ForbiddenError('Test helpers work only in the test environment');
    const deps = { transactions: req.deps.repos.transactions };
    const t = await getTransaction(deps, tenant, req.pathParams.id);
    const { failureCode } = parseInput(failBody, req.body ?? {});
    const sandbox = req.deps.payments.forEnvironment('test') as SandboxGateway;
    await sandbox.simulate(t.gatewayPayId, action, failureCode);
    return {
      statusCode: 200,
      body: toTransactionView(await getTransaction(deps, tenant, req.pathParams.id)),
    };
  };
}

export const pay = simulate('pay');
export const fail = simulate('fail');
export const chargeback = simulate('chargeback');
