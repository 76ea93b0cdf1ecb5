import { createHttpHandler } from '#shared/http/pipeline';
import { once } from '#shared/once';
import { eventRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(eventRoutes, (c) => {
  // Events are stamped on business time (the test clock locally), so the 30 days count on it too.
  const deps = { events: c.events, clock: c.clock };
  return {
    listEvents: async ({ tenant, query }) => (await useCases()).listEvents(deps, tenant, query),
    getEvent: async ({ tenant, path }) => (await useCases()).getEvent(deps, tenant, path.id),
  };
});
