import { checkoutView } from '#shared/domain/checkout/public';
import { minhaAreaPage } from '#shared/domain/pages/minha-area-page';
import { checkoutPage } from '#shared/domain/pages/page';
import { portalPage } from '#shared/domain/pages/portal';
import { defineHandlers } from '#shared/http/pipeline';
import { assetReply, pageReply, themeReply } from './respond';
import { pagesRoutes } from './routes';

export const group = defineHandlers(pagesRoutes, ({ deps }) => {
  const pages = { checkoutView: (ref: string) => checkoutView(deps, ref) };
  return {
    getPaymentLinkPage: async ({ path }) => pageReply(await checkoutPage(pages, 'product', path.productUuid)),
    getCheckoutSessionPage: async ({ path }) => pageReply(await checkoutPage(pages, 'session', path.id)),
    getPageAsset: async ({ path }) => assetReply(path.file),
    getPortalPage: async ({ query }) => pageReply(await portalPage(deps, query)),
    getPortalTheme: async ({ path }) => themeReply(path.color),
    getMinhaAreaPage: async () => pageReply(minhaAreaPage()),
  };
});
