import { minhaAreaPage } from '#shared/domain/pages/minha-area-page';
import { productUuid } from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { pagesRoutes } from './routes';

/** Calls of the hosted pages for the API reference: their answers are HTML, scripts and styles. */
export const examples = defineExamples(pagesRoutes, {
  getPaymentLinkPage: { path: { productUuid } },
  getCheckoutSessionPage: {
    path: { id: `cs_test_6xWh6kh81YyQhKZtGiZZUo6x${productUuid.replaceAll('-', '')}` },
  },
  getPageAsset: { path: { file: 'checkout.js' } },
  getPortalPage: { query: { token: 'pt_VjJpDoB9SgmfubgzPoSlceH0yinyPNNnpQ5cm3TSisw' } },
  getMinhaAreaPage: { responses: { 200: minhaAreaPage().html } },
  getPortalTheme: { path: { color: '257264' } },
});
