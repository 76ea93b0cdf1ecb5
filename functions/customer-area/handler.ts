import { magicLinkSubjectOf, useMagicLinks } from '#shared/domain/customer-area/verifier';
import { createHttpHandler } from '#shared/http/pipeline';
import { customerAreaRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const customerAreaCharges = () => import('#shared/domain/customer-area/charges');
const customerAreaProfile = () => import('#shared/domain/customer-area/profile');
const customerAreaRequest = () => import('#shared/domain/customer-area/request');

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
    requestMagicLink: async ({ body, request }) =>
      (await customerAreaRequest()).requestMagicLink(deps, body, request.sourceIp),
    listCustomerAreaCharges: async ({ request }) =>
      (await customerAreaCharges()).listCustomerCharges(charges, magicLinkSubjectOf(request.subject)),
    setCustomerAreaBillingEmail: async ({ body, request }) =>
      (await customerAreaProfile()).setCustomerAreaBillingEmail(
        profile,
        magicLinkSubjectOf(request.subject),
        body,
      ),
  };
});
