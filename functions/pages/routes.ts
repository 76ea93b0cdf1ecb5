import { defineRoutes } from '#shared/http/types';
import {
  pageAssetParam,
  portalPageQuery,
  productUuidPageParam,
  sessionPageParam,
  themeColorParam,
} from './shapes';

const page = {
  200: { contentType: 'text/html', description: 'The hosted payment page (pt-BR).' },
  404: { contentType: 'text/html', description: 'A page in Portuguese saying the link names nothing.' },
} as const;

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
    request: { path: productUuidPageParam },
    responses: page,
  },
  {
    operationId: 'getCheckoutSessionPage',
    method: 'GET',
    path: '/checkout/{id}',
    auth: [],
    summary: 'Hosted payment page of a checkout session (its url)',
    request: { path: sessionPageParam },
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
    request: { path: pageAssetParam },
    notFound: 'Asset not found',
    responses: {
      200: { contentType: 'text/*', description: 'The script (text/javascript) or style sheet (text/css).' },
    },
  },
  {
    operationId: 'getPortalPage',
    method: 'GET',
    path: '/portal',
    auth: [],
    summary: 'Hosted customer portal (the portalUrl of a portal session)',
    description:
      'The page checks the `token` itself, so that an unknown or expired one gets a page in Portuguese ' +
      'rather than a JSON error; its script then calls the token routes of the portal group.',
    // Any text reaches the use case: a missing or malformed token gets the same 401 page as an expired one;
    // `updated` (the subscription an action just changed, sent by the page's script) is ignored unless an id.
    request: { query: portalPageQuery },
    responses: {
      200: { contentType: 'text/html', description: "The customer's portal (pt-BR)." },
      401: {
        contentType: 'text/html',
        description: 'A page in Portuguese saying the link expired, with no data.',
      },
      404: { contentType: 'text/html', description: 'The same page when the customer no longer exists.' },
    },
  },
  {
    operationId: 'getMinhaAreaPage',
    method: 'GET',
    path: '/minha-area',
    auth: [],
    summary: 'Hosted customer area (minha-área): ask for a magic link, see charges with every seller',
    description:
      'The same page for everyone: the magic link carries its token in the URL fragment ' +
      "(`/minha-area#token=…`), which browsers never send, and the page's script calls the customer-area " +
      'routes with it. Without a token the page asks for the e-mail or CPF/CNPJ to send a link to.',
    responses: { 200: { contentType: 'text/html', description: 'The customer area (pt-BR).' } },
  },
  {
    operationId: 'getPortalTheme',
    method: 'GET',
    path: '/pages/themes/{color}',
    auth: [],
    rateLimited: false,
    summary: "Style sheet of a portal's primary colour (six hex digits)",
    request: { path: themeColorParam },
    notFound: 'Theme not found',
    responses: { 200: { contentType: 'text/css', description: 'The colour as CSS custom properties.' } },
  },
]);
