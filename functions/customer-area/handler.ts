import { requestMagicLink } from '#shared/domain/customer-area/request';
import { createHttpHandler } from '#shared/http/pipeline';
import { customerAreaRoutes } from './routes';

export const handler = createHttpHandler(customerAreaRoutes, (c) => {
  const deps = {
    customers: c.repos.customers,
    directory: c.repos.customerDirectory,
    rateLimits: c.repos.rateLimits,
    keyring: c.magicLinks,
    mailer: c.mailer,
    clock: c.clock,
    publicBaseUrl: c.config.publicBaseUrl,
  };
  return {
    requestMagicLink: ({ body, request }) => requestMagicLink(deps, body, request.sourceIp),
  };
});
