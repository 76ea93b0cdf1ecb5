import * as z from 'zod';
import { PAGE_ASSETS } from '#shared/domain/pages/checkout-page';
import { defineRoutes } from '#shared/http/types';

const page = {
  200: { contentType: 'text/html', description: 'The hosted payment page (pt-BR).' },
  404: { contentType: 'text/html', description: 'A page in Portuguese saying the link names nothing.' },
} as const;

// Any text reaches the use case: a malformed ref gets the same HTML 404 page as an unknown one.
const ref = (name: string) => z.object({ [name]: z.string() });

/**
 * The hosted payment pages (HTML for buyers' browsers, public, rate limited per IP like every
 * public route). The page's script pays through the public checkout routes of the checkout group.
 */
export const pagesRoutes = defineRoutes('pages', [
  {
    operationId: 'getPaymentLinkPage',
    method: 'GET',
    path: '/pay/{productUuid}',
    auth: [],
    summary: 'Hosted payment page of a product (its payment link)',
    request: { path: ref('productUuid') },
    responses: page,
  },
  {
    operationId: 'getCheckoutSessionPage',
    method: 'GET',
    path: '/checkout/{id}',
    auth: [],
    summary: 'Hosted payment page of a checkout session (its url)',
    request: { path: ref('id') },
    responses: page,
  },
  {
    operationId: 'getPageAsset',
    method: 'GET',
    path: '/pages/assets/{file}',
    auth: [],
    // Static files that never touch the table: the per-IP counter would be their only DynamoDB traffic.
    rateLimited: false,
    summary: 'Script or style sheet of the hosted payment pages',
    request: { path: z.object({ file: z.enum(PAGE_ASSETS) }) },
    notFound: 'Asset not found',
    responses: {
      200: { contentType: 'text/*', description: 'The script (text/javascript) or style sheet (text/css).' },
    },
  },
]);
