/**
 * Two years, subdomains included: browsers then never try the service over plain http. Sent on
 * every answer, the local runtime's too (browsers ignore it over http, so it is harmless there).
 */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * The headers every answer leaves with. `Cache-Control: no-store` unless the answer chose its own
 * caching (the pages' static files, the API reference): most answers carry a seller's or a buyer's
 * data, and one rule for all of them cannot forget a route that does.
 */
export function withTransportHeaders<V extends string | number | boolean>(
  headers: Record<string, V> = {},
): Record<string, V | string> {
  const cached = Object.keys(headers).some((name) => name.toLowerCase() === 'cache-control');
  return {
    ...(cached ? {} : { 'cache-control': 'no-store' }),
    ...headers,
    'strict-transport-security': HSTS,
  };
}
