import { magicLinkSubjectOf, useMagicLinks } from '#shared/domain/customer-area/verifier';
import { createHttpHandler } from '#shared/http/pipeline';
import { once } from '#shared/once';
import { customerAreaRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

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
      (await useCases()).requestMagicLink(deps, body, request.sourceIp),
    listCustomerAreaCharges: async ({ request }) =>
      (await useCases()).listCustomerCharges(charges, magicLinkSubjectOf(request.subject)),
    setCustomerAreaBillingEmail: async ({ body, request }) =>
      (await useCases()).setCustomerAreaBillingEmail(profile, magicLinkSubjectOf(request.subject), body),
  };
});
