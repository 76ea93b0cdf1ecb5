import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];
export type Environment = 'test' | 'live';

/** The auth routes a visitor calls with no token (the refresh route would otherwise ask itself for one). */
const PUBLIC_AUTH = new Set([
  '/api/auth/sign-up',
  '/api/auth/confirm',
  '/api/auth/login',
  '/api/auth/login/totp',
  '/api/auth/refresh',
  '/api/auth/logout',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
]);

/** What the client needs from the session: the ID token (refreshed when near its end) and the mode. */
export interface ClientContext {
  token(): Promise<string | null>;
  environment(): Environment;
  /** The seller the user chose in the switcher; null: the login's own (no X-Seller-Id). */
  seller(): number | null;
  /** The API refused the token: the session is over. */
  onUnauthorized(): void;
}

/**
 * The one API client: generated types from docs/openapi.json (schema.d.ts), same origin as the page
 * (CloudFront on AWS, the local runtime on `npm start`). Every call carries the seller's ID token as
 * Bearer, the mode switch as X-Environment and the chosen seller as X-Seller-Id, the headers the
 * API reads for a dashboard JWT (it checks the user's membership of that seller on every request).
 */
export function createApi(context: ClientContext) {
  const api = createClient<paths>({ baseUrl: '' });
  const auth: Middleware = {
    async onRequest({ request, schemaPath }) {
      if (PUBLIC_AUTH.has(schemaPath)) return request;
      const token = await context.token();
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      if (!request.headers.has('x-environment')) request.headers.set('x-environment', context.environment());
      const seller = context.seller();
      if (seller !== null && !request.headers.has('x-seller-id'))
        request.headers.set('x-seller-id', String(seller));
      return request;
    },
    onResponse({ response, schemaPath }) {
      if (response.status === 401 && !schemaPath.startsWith('/api/auth/')) context.onUnauthorized();
      return response;
    },
  };
  api.use(auth);
  return api;
}

export type Api = ReturnType<typeof createApi>;

/** An answer that is not 2xx, with the API's own message (one sentence per invalid field). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
    readonly code: string | undefined,
  ) {
    super(messages.join(' '));
  }
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/** The data of a 2xx answer, or an ApiError (what TanStack Query shows as the view's error). */
export async function must<T>(call: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = (error ?? {}) as Partial<Schemas['ErrorBody']>;
  const message = body.message;
  const messages = Array.isArray(message) ? message : [message ?? `Erro ${response.status}`];
  throw new ApiError(response.status, messages, body.code);
}
