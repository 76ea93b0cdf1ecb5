import { listCustomerCharges } from '#shared/domain/customer-area/charges';
import { setCustomerAreaBillingEmail } from '#shared/domain/customer-area/profile';
import { requestMagicLink } from '#shared/domain/customer-area/request';
import { magicLinkSubjectOf, useMagicLinks } from '#shared/domain/customer-area/verifier';
import { defineHandlers } from '#shared/http/pipeline';
import { customerAreaRoutes } from './routes';

useMagicLinks();

export const group = defineHandlers(customerAreaRoutes, ({ deps }) => ({
  requestMagicLink: ({ body, request }) => requestMagicLink(deps, body, request.sourceIp),
  listCustomerAreaCharges: ({ request }) => listCustomerCharges(deps, magicLinkSubjectOf(request.subject)),
  setCustomerAreaBillingEmail: ({ body, request }) =>
    setCustomerAreaBillingEmail(deps, magicLinkSubjectOf(request.subject), body),
}));
