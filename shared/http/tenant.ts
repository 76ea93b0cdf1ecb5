import type { HttpRequest, Tenant } from './types';

/** The tenant of an authenticated request; routes reach here only after authentication. */
export function tenantOf(req: HttpRequest): Tenant {
  const tenant = req.auth?.tenant;
  if (!tenant) throw new Error(`route ${req.routeKey} needs a tenant but its schemes give none`);
  return tenant;
}
