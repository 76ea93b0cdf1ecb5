import { listCustomerCharges } from '#shared/domain/customer-area/charges';
import { setCustomerAreaBillingEmail } from '#shared/domain/customer-area/profile';
import { requestMagicLink } from '#shared/domain/customer-area/request';
import { magicLinkSubjectOf, useMagicLinks } from '#shared/domain/customer-area/verifier';
import { createHttpHandler } from '#shared/http/pipeline';
import { customerAreaRoutes } from './routes';

useMagicLinks();

export const handler = createHttpHandler(customerAreaRoutes, (c) => {
  const deps = {
    customers: c.repos.customers,
    directory: c.repos.customerDirectory,
    rateLimits: c.repos.rateLimits,
    keyring: c.magicLinks,
    mailer: c.mailer,
    clock: c.clock,
    pacer: c.pacer,
    publicBaseUrl: c.config.publicBaseUrl,
  };
  const charges = {
    customers: c.repos.customers,
    directory: c.repos.customerDirectory,
    scheduledCharges: c.repos.scheduledCharges,
    installmentPlans: c.repos.installmentPlans,
    clock: c.clock,
    publicBaseUrl: c.config.publicBaseUrl,
  };
  const profile = { ...charges, transactions: c.repos.transactions };
  return {
    requestMagicLink: ({ body, request }) => requestMagicLink(deps, body, request.sourceIp),
    listCustomerAreaCharges: ({ request }) =>
      listCustomerCharges(charges, magicLinkSubjectOf(request.subject)),
    setCustomerAreaBillingEmail: ({ body, request }) =>
      setCustomerAreaBillingEmail(profile, magicLinkSubjectOf(request.subject), body),
  };
});
