import type { RouteGroup } from '#shared/http/types';
import { emitTestEvent } from './events';

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
  ],
};
