import createClient, { type Client } from 'openapi-fetch';
import { apiErrorFrom } from './errors.ts';
import { PagePromise } from './pagination.ts';
import { type CallOptions, RESOURCES, type Resources, type Route } from './resources.ts';
import { BODY_OPERATIONS, QUERY_OPERATIONS } from './routes.generated.ts';
import type { paths } from './schema.d.ts';
import { authAndIdempotency, IDEMPOTENCY_HEADER, type RetryOptions, retryingFetch } from './transport.ts';

export interface ClientOptions extends RetryOptions {
  /** The service's base URL: `https://api.example.com`, or the local runtime's `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The fetch to send with (a test double, a proxy); default the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** The client: one object per resource (`client.transactions.create(…)`), and `api`, the typed openapi-fetch client under them. */
export type PaymentService = Resources<typeof RESOURCES> & {
  /**
   * The openapi-fetch client the resources call, with the same API key, idempotency keys and
   * retries: for a route the resources do not name (`api.GET('/api/transactions/export', …)`).
   */
  readonly api: Client<paths>;
};

/**
 * A client for one API key: `sk_test_…` acts in the sandbox, `sk_live_…` in production.
 *
 * ```ts
 * const payments = createPaymentService(process.env.PAYMENT_SERVICE_KEY!, { baseUrl: 'https://…' });
 * const sale = await payments.transactions.create({ productId, paymentMethod: 'pix', customer });
 * ```
 */
export function createPaymentService(apiKey: string, options: ClientOptions): PaymentService {
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new TypeError('createPaymentService needs an API key (sk_test_… or sk_live_…)');
  }
  if (!options?.baseUrl) throw new TypeError('createPaymentService needs options.baseUrl');
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const defaultFetch = retryingFetch(baseFetch, options);
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: defaultFetch,
    headers: options.headers,
  });
  api.use(authAndIdempotency(apiKey));

  async function call(route: Route, args: unknown[]): Promise<unknown> {
    const [method, path] = route;
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const pathParams: Record<string, string> = {};
    names.forEach((name, i) => {
      const value = args[i];
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw new TypeError(`${method.toUpperCase()} ${path} needs ${name} (argument ${i + 1})`);
      }
      pathParams[name] = String(value);
    });
    const operation = `${method.toUpperCase()} ${path}`;
    let next = names.length;
    const body = BODY_OPERATIONS.has(operation) ? args[next++] : undefined;
    const query =
      !BODY_OPERATIONS.has(operation) && QUERY_OPERATIONS.has(operation) ? args[next++] : undefined;
    const callOptions = (args[next] ?? {}) as CallOptions;
    return send(method, path, pathParams, body, query as Record<string, unknown> | undefined, callOptions);
  }

  async function send(
    method: string,
    path: string,
    pathParams: Record<string, string>,
    body: unknown,
    query: Record<string, unknown> | undefined,
    callOptions: CallOptions,
  ): Promise<unknown> {
    const headers: Record<string, string> = { ...callOptions.headers };
    if (callOptions.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = callOptions.idempotencyKey;
    const { data, error, response } = await api.request(
      method as 'get',
      path as '/api/health',
      {
        params: { path: pathParams, query },
        body: body as never,
        headers,
        signal: callOptions.signal,
        fetch:
          callOptions.maxRetries === undefined
            ? defaultFetch
            : retryingFetch(baseFetch, { ...options, maxRetries: callOptions.maxRetries }),
      } as never,
    );
    if (!response.ok) throw apiErrorFrom(response.status, error, response.headers);
    return data;
  }

  const resources: Record<string, Record<string, (...args: unknown[]) => unknown>> = {};
  for (const [name, methods] of Object.entries(RESOURCES) as [string, Record<string, Route>][]) {
    resources[name] = {};
    for (const [methodName, route] of Object.entries(methods)) {
      resources[name][methodName] =
        route[0] === 'get'
          ? (...args: unknown[]) => {
              const names = (route[1].match(/\{/g) ?? []).length;
              const fixed = args.slice(0, names);
              const hasQuery = QUERY_OPERATIONS.has(`GET ${route[1]}`);
              const query = hasQuery ? (args[names] as Record<string, unknown> | undefined) : undefined;
              const rest = args.slice(names + (hasQuery ? 1 : 0));
              return PagePromise.of(
                (q) => call(route, [...fixed, ...(hasQuery ? [q] : []), ...rest]) as Promise<any>,
                query,
              );
            }
          : (...args: unknown[]) => call(route, args);
    }
  }
  return { ...(resources as Resources<typeof RESOURCES>), api };
}
