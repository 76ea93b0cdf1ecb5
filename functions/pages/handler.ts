import { checkoutView } from '#shared/domain/checkout/public';
import { minhaAreaPage } from '#shared/domain/pages/minha-area-page';
import { checkoutPage, type PageDeps } from '#shared/domain/pages/page';
import { type PortalPageDeps, portalPage } from '#shared/domain/pages/portal';
import { createHttpHandler } from '#shared/http/pipeline';
import { assetReply, pageReply, themeReply } from './respond';
import { pagesRoutes } from './routes';

export const handler = createHttpHandler(pagesRoutes, (c) => {
  const viewDeps = {
    sessions: c.repos.checkoutSessions,
    products: c.repos.products,
    transactions: c.repos.transactions,
    clock: c.clock,
  };
  const deps: PageDeps = { checkoutView: (ref) => checkoutView(viewDeps, ref) };
  const portalDeps: PortalPageDeps = {
    portalSessions: c.repos.portalSessions,
    customers: c.repos.customers,
    portalConfigs: c.repos.portalConfigs,
    subscriptions: c.repos.subscriptions,
    paymentMethods: c.repos.paymentMethods,
    clock: c.clock,
  };
  return {
    getPaymentLinkPage: async ({ path }) => pageReply(await checkoutPage(deps, 'product', path.productUuid)),
    getCheckoutSessionPage: async ({ path }) => pageReply(await checkoutPage(deps, 'session', path.id)),
    getPageAsset: ({ path }) => assetReply(path.file),
    getPortalPage: async ({ query }) => pageReply(await portalPage(portalDeps, query)),
    getPortalTheme: async ({ path }) => themeReply(path.color),
    getMinhaAreaPage: async () => pageReply(minhaAreaPage()),
  };
});
