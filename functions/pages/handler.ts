import { checkoutPage, type PageDeps } from '#shared/domain/pages/page';
import { NotFoundError } from '#shared/errors';
import { createHttpHandler } from '#shared/http/pipeline';
import { assetReply, pageReply } from './respond';
import { pagesRoutes } from './routes';

export const handler = createHttpHandler(pagesRoutes, () => {
  // TEMPORARY until the lead's checkoutView lands.
  const deps: PageDeps = {
    checkoutView: async () => {
      throw new NotFoundError('Checkout not found');
    },
  };
  return {
    getPaymentLinkPage: async ({ path }) => pageReply(await checkoutPage(deps, 'product', path.productUuid)),
    getCheckoutSessionPage: async ({ path }) => pageReply(await checkoutPage(deps, 'session', path.id)),
    getPageAsset: ({ path }) => assetReply(path.file),
  };
});
