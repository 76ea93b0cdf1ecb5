import { customerChargesResponse } from '#shared/domain/customer-area/charges';
import { CUSTOMER_GONE, NO_RELATIONSHIP } from '#shared/domain/customer-area/messages';
import { customerAreaProfileResponse, customerAreaProfileSchema } from '#shared/domain/customer-area/profile';
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
  {
    operationId: 'listCustomerAreaCharges',
    method: 'GET',
    path: '/api/public/minha-area/charges',
    auth: ['magicLink'],
    summary: "The magic link's customer's charges with every seller",
    description:
      'Open and recent (due in the last 90 days) scheduled-charge cycles and carnê installments of the ' +
      'customer with every seller that registered it, only in the environment the link was issued for. Each ' +
      'has `sellerId`, `sellerName`, `amount` (reais), `dueDate`, `status` and, while open, `payUrl` (the pay ' +
      `link page, or the installment's boleto). 401 for an expired or invalid link; 404 \`${CUSTOMER_GONE}\`.`,
    errors: [404],
    responses: { 200: customerChargesResponse },
  },
  {
    operationId: 'setCustomerAreaBillingEmail',
    method: 'PATCH',
    path: '/api/public/minha-area/profile',
    auth: ['magicLink'],
    summary: 'Set or clear the billing e-mail one seller uses (magic link)',
    description:
      '`sellerId` and `billingEmailOverride` (an e-mail, or null to clear) are both required. The override ' +
      "is kept as given on that seller's profile (later e-mail changes do not move it) and that seller's " +
      `reminders go to it. 400 not an e-mail; 401 expired or invalid link; 403 \`${NO_RELATIONSHIP}\` when ` +
      `the customer has no charge, carnê or payment with the seller; 404 \`${CUSTOMER_GONE}\`.`,
    request: { body: customerAreaProfileSchema },
    errors: [403, 404],
    responses: { 200: customerAreaProfileResponse },
  },
]);
