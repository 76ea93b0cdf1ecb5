import type { Tenant } from './tenant';

/**
 * A scheduled job's id names its resource with the tenant it belongs to, so a job run reads the
 * resource in its own partition: `<sellerId>:<environment>:<resource id>`. Every job id is built here.
 */
export const jobId = (tenant: Tenant, id: string | number): string =>
  `${tenant.sellerId}:${tenant.environment}:${id}`;

const JOB_ID = /^(\d{1,15}):(test|live):(.+)$/;

/**
 * The tenant and resource id of `value`, when its resource id matches `idPattern` whole (a numeric
 * id, a charge id, a plan uuid); null for anything else, so a forged or stale job changes nothing.
 */
export function parseJobId(value: string, idPattern: RegExp): { tenant: Tenant; id: string } | null {
  const m = JOB_ID.exec(value);
  if (!m || !new RegExp(`^(?:${idPattern.source})$`).test(m[3])) return null;
  return { tenant: { sellerId: Number(m[1]), environment: m[2] as Tenant['environment'] }, id: m[3] };
}

/** A numeric resource id (transactions, subscriptions, payment methods). */
export const NUMERIC_ID = /\d{1,15}/;

/** `parseJobId` of a job whose resource id is numeric. */
export function parseNumericJobId(value: string): { tenant: Tenant; id: number } | null {
  const ref = parseJobId(value, NUMERIC_ID);
  return ref && { tenant: ref.tenant, id: Number(ref.id) };
}
