import type { PageDeps } from '#shared/domain/pages/page';
import type { PortalPageDeps } from '#shared/domain/pages/portal';
import { createHttpHandler } from '#shared/http/pipeline';
import { once } from '#shared/once';
import { assetReply, pageReply, themeReply } from './respond';
import { pagesRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

export const handler = createHttpHandler(pagesRoutes, (c) => {
  const viewDeps = {
    sessions: c.repos.checkoutSessions,
    products: c.repos.products,
    transactions: c.repos.transactions,
    clock: c.clock,
  };
  const deps: PageDeps = {
    checkoutView: async (ref) => (await useCases()).checkoutView(viewDeps, ref),
  };
  const portalDeps: PortalPageDeps = {
    portalSessions: c.repos.portalSessions,
    customers: c.repos.customers,
    portalConfigs: c.repos.portalConfigs,
    subscriptions: c.repos.subscriptions,
    paymentMethods: c.repos.paymentMethods,
    clock: c.clock,
  };
  return {
    getPaymentLinkPage: async ({ path }) =>
      pageReply(await (await useCases()).checkoutPage(deps, 'product', path.productUuid)),
    getCheckoutSessionPage: async ({ path }) =>
      pageReply(await (await useCases()).checkoutPage(deps, 'session', path.id)),
    getPageAsset: async ({ path }) => assetReply(path.file),
    getPortalPage: async ({ query }) => pageReply(await (await useCases()).portalPage(portalDeps, query)),
    getPortalTheme: async ({ path }) => themeReply(path.color),
    getMinhaAreaPage: async () => pageReply((await useCases()).minhaAreaPage()),
  };
});
