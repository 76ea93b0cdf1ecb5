import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BodyParsedError, verifyWebhook, type WebhookEvent, WebhookVerificationError } from './webhooks.ts';

/**
 * Webhook verification for Fastify (4 and 5; fastify is not a dependency, only its types are
 * used). Fastify parses JSON before any hook runs, so the plugin swaps the JSON parser of its scope
 * for one that keeps the raw Buffer, and checks every route of that scope in a preHandler:
 *
 * ```ts
 * app.register(async (hooks) => {
 *   await hooks.register(fastifyWebhooks, { secret: process.env.WEBHOOK_SECRET! });
 *   hooks.post('/webhooks', async (request) => {
 *     const event = request.webhookEvent!; // verified
 *     return { received: true };
 *   });
 * });
 * ```
 *
 * Keep the webhook route in a scope of its own (as above): other routes of the scope get a Buffer
 * body too. A refused delivery is answered 400 `{code, message}`.
 */
export interface FastifyWebhookOptions {
  /** The endpoint's `whsec_…` secret, or several while rotating. */
  secret: string | readonly string[];
  /** How far from now the signature's time may be. Default 300 s. */
  toleranceSeconds?: number;
}

export const PARSED_FIX_FASTIFY =
  "Fastify's JSON parser ran before the check: register the fastifyWebhooks plugin in the webhook route's scope (app.register(async (hooks) => { await hooks.register(fastifyWebhooks, { secret }); hooks.post(…) })), which keeps the raw body.";

/** The check alone, as a preHandler, for a scope whose JSON parser already keeps the raw Buffer. */
export function fastifyWebhookPreHandler(options: FastifyWebhookOptions) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    try {
      const { body } = request;
      if (!Buffer.isBuffer(body) && typeof body !== 'string' && body !== undefined && body !== null) {
        throw new BodyParsedError(PARSED_FIX_FASTIFY);
      }
      request.webhookEvent = verifyWebhook({
        payload: body,
        header: request.headers['x-signature'],
        secret: options.secret,
        toleranceSeconds: options.toleranceSeconds,
      });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      await reply.code(error.status).send({ code: error.code, message: error.message });
    }
  };
}

/** The plugin: raw JSON bodies in its scope, and every route of the scope verified. */
export async function fastifyWebhooks(
  instance: FastifyInstance,
  options: FastifyWebhookOptions,
): Promise<void> {
  instance.removeContentTypeParser('application/json');
  instance.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  if (!instance.hasRequestDecorator('webhookEvent')) instance.decorateRequest('webhookEvent', undefined);
  instance.addHook('preHandler', fastifyWebhookPreHandler(options));
}
// As fastify-plugin does: applied to the scope that registers it, not a child of it.
(fastifyWebhooks as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')] = true;
(fastifyWebhooks as unknown as Record<symbol, unknown>)[Symbol.for('fastify.display-name')] =
  'fastifyWebhooks';

declare module 'fastify' {
  interface FastifyRequest {
    /** The event fastifyWebhooks verified. */
    webhookEvent?: WebhookEvent;
  }
}
