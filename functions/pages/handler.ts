import { checkoutView } from '#shared/domain/checkout/public';
import { checkoutPage, type PageDeps } from '#shared/domain/pages/page';
import { createHttpHandler } from '#shared/http/pipeline';
import { assetReply, pageReply } from './respond';
import { pagesRoutes } from './routes';

export const handler = createHttpHandler(pagesRoutes, (c) => {
  const viewDeps = {
    sessions: c.repos.checkoutSessions,
    products: c.repos.products,
    transactions: c.repos.transactions,
    clock: c.clock,
  };
  const deps: PageDeps = { checkoutView: (ref) => checkoutView(viewDeps, ref) };
  return {
    getPaymentLinkPage: async ({ path }) => pageReply(await checkoutPage(deps, 'product', path.productUuid)),
    getCheckoutSessionPage: async ({ path }) => pageReply(await checkoutPage(deps, 'session', path.id)),
    getPageAsset: ({ path }) => assetReply(path.file),
  };
});
