import type { AuthScheme, RouteGroup } from '#shared/http/types';
import { emitTestEvent } from './events';
import { chargeback, fail, pay } from './transactions';

/** Sandbox helpers that also exist deployed; they act on test-environment data only. */
export const testHelperRoutes: RouteGroup = {
  name: 'test-helpers',
  routes: [
    {
      method: 'POST',
      path: '/api/test-helpers/events',
      auth: ['apiKey', 'jwt'],
      summary: 'Emit a sandbox event to the registered endpoints',
      handler: emitTestEvent,
    },
    ...(
      [
        ['pay', pay],
        ['fail', fail],
        ['chargeback', chargeback],
      ] as const
    ).map(([action, handler]) => ({
      method: 'POST' as const,
      path: `/api/test-helpers/transactions/{id}/${action}`,
      auth: ['apiKey', 'jwt'] as AuthScheme[],
      summary: `Sandbox: ${action} a test transaction through a signed provider notification`,
      handler,
    })),
  ],
};
