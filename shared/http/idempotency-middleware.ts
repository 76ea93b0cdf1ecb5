import { fingerprintOf, pinsKey, resolveExisting, validateKey } from '#shared/domain/idempotency';
import { AppError, toErrorBody } from '#shared/errors';
import type { PipelineMiddleware, PipelineRequest } from './pipeline';

interface Claim {
  scope: string;
  key: string;
}

const claims = new WeakMap<object, Claim>();

/**
 * Keys sent without authentication live in a namespace of their own: anyone may call a public
 * route, so a key claimed there must never answer (or block, with 422) the seller's own
 * authenticated request that happens to use the same key.
 */
const PUBLIC_SCOPE = 'public#';

async function scopeOf(req: PipelineRequest): Promise<string | null> {
  const { route, binding, http } = req.internal;
  const option = route.idempotent;
  if (!option) return null;
  if (option === 'custom') {
    if (typeof binding === 'function') throw new Error(`${route.operationId} has no idempotencyScope`);
    const scope = await binding.idempotencyScope({ body: http.body, sourceIp: http.sourceIp });
    return route.auth.length === 0 ? `${PUBLIC_SCOPE}${scope}` : scope;
  }
  const tenant = req.internal.http.auth?.tenant;
  return tenant ? `${tenant.sellerId}#${tenant.environment}` : null;
}

/**
 * X-Idempotency-Key for the routes that opt in: the first request claims the key, a repeat with
 * the same body gets the stored answer without running again, another body gets 422, and a repeat
 * while the first still runs gets 409.
 */
export function idempotency(): PipelineMiddleware {
  return {
    before: async (request) => {
      const req = request as PipelineRequest;
      const key = req.internal.http.headers['x-idempotency-key'];
      if (key === undefined || !req.internal.route.idempotent) return;
      validateKey(key);
      const scope = await scopeOf(req);
      if (!scope) return;
      const { http } = req.internal;
      const fingerprint = fingerprintOf(http.method, http.path, http.body);
      const repo = http.container.repos.idempotency;
      const outcome = await repo.begin(scope, key, fingerprint, http.container.clock.now());
      const stored = resolveExisting(outcome, fingerprint);
      if (stored) {
        req.internal.replay = {
          statusCode: stored.statusCode,
          headers: { ...stored.headers, 'idempotent-replayed': 'true' },
          body: stored.body,
        };
        return;
      }
      claims.set(req.internal, { scope, key });
      http.retryKey = `${scope}\n${key}\n${fingerprint}`;
    },
    after: async (request) => {
      const req = request as PipelineRequest;
      const claim = claims.get(req.internal);
      if (!claim || !request.response) return;
      const deps = req.internal.http.container;
      const { statusCode } = request.response;
      if (!pinsKey(statusCode ?? 200)) return release(req, claim);
      await deps.repos.idempotency.complete(
        claim.scope,
        claim.key,
        {
          statusCode: statusCode ?? 200,
          headers: {
            'content-type': String(request.response.headers?.['content-type'] ?? 'application/json'),
          },
          body: String(request.response.body ?? ''),
        },
        deps.clock.now(),
      );
    },
    onError: async (request) => {
      const req = request as PipelineRequest;
      const claim = claims.get(req.internal);
      if (!claim) return;
      const error = request.error;
      const code = error instanceof AppError ? error.code : undefined;
      const status = error instanceof AppError ? error.statusCode : 500;
      if (!pinsKey(status, code)) return release(req, claim);
      const { container: deps, path } = req.internal.http;
      const body = toErrorBody(error, path, deps.clock.now());
      await deps.repos.idempotency.complete(
        claim.scope,
        claim.key,
        { statusCode: status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        deps.clock.now(),
      );
    },
  };
}

async function release(req: PipelineRequest, claim: Claim) {
  try {
    await req.internal.http.container.repos.idempotency.release(claim.scope, claim.key);
  } catch (error) {
    // The lease expires by itself after IN_PROGRESS_LEASE_SECONDS; never mask the real answer.
    req.internal.http.log.warn('could not release idempotency key', { error });
  }
}
