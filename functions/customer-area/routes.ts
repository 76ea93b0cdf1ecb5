import { magicLinkRequestResponse, magicLinkRequestSchema } from '#shared/domain/customer-area/schemas';
import { defineRoutes } from '#shared/http/types';

/**
 * The customer area (minha-área, issue 15): a customer of any seller signs in with a magic link
 * e-mailed to the address it was registered with. The link carries its JWT in the URL fragment
 * (`/minha-area#token=…`), which browsers never send to a server, so no access log holds it.
 */
export const customerAreaRoutes = defineRoutes('customer-area', [
  {
    operationId: 'requestMagicLink',
    method: 'POST',
    path: '/api/public/minha-area/request',
    auth: [],
    summary: 'E-mail a magic link to the customer area (public)',
    description:
      'Body: `email` or `document` (a CPF/CNPJ, masked or not), exactly one. Always 200 with the same shape: ' +
      '`maskedEmail` (`m***@example.com`) when a customer matched, else null. A match gets an e-mail with a ' +
      'link valid for 30 minutes, for the environment (sandbox or live) where the customer exists. Rate ' +
      'limited per client IP (10 a minute) and per e-mail or document (5 every 10 minutes): 429 in Portuguese.',
    request: { body: magicLinkRequestSchema },
    responses: { 200: magicLinkRequestResponse },
  },
]);
