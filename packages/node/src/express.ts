import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  BodyParsedError,
  BodyTooLargeError,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from './webhooks.ts';

/**
 * Webhook verification for Express (4 and 5; express is not a dependency: the middleware uses only
 * Node's request and response). It needs the raw body: mount it where no JSON parser ran first.
 *
 * ```ts
 * app.post('/webhooks', webhookMiddleware({ secret: process.env.WEBHOOK_SECRET! }), (req, res) => {
 *   const event = req.webhookEvent; // verified
 *   res.sendStatus(200);
 * });
 * app.use(express.json()); // after the webhook route, or not on it
 * ```
 *
 * It reads the body itself when nothing did, and takes the Buffer of `express.raw()` or the string
 * of `express.text()`. A body an `express.json()` parsed before it is refused with a message saying
 * so. A refused delivery is answered 400 `{code, message}` (or, with `onError: 'next'`, handed to
 * Express's error handlers as a WebhookVerificationError).
 */
export interface WebhookMiddlewareOptions {
  /** The endpoint's `whsec_…` secret, or several while rotating. */
  secret: string | readonly string[];
  /** How far from now the signature's time may be. Default 300 s. */
  toleranceSeconds?: number;
  /** `respond` (default): answer 400 `{code, message}`; `next`: call next(error). */
  onError?: 'respond' | 'next';
  /** The largest body it reads itself; a longer one is refused 413. Default 1 MiB. */
  maxBodyBytes?: number;
}

type ExpressLikeRequest = IncomingMessage & { body?: unknown; webhookEvent?: WebhookEvent };
type Next = (error?: unknown) => void;

export const PARSED_FIX_EXPRESS =
  'A JSON body parser (app.use(express.json()) or bodyParser.json()) ran before this middleware. Declare the webhook route before app.use(express.json()), or give it express.raw({ type: "application/json" }) instead.';

export function webhookMiddleware(options: WebhookMiddlewareOptions) {
  return (req: ExpressLikeRequest, res: ServerResponse, next: Next): void => {
    rawBody(req, options.maxBodyBytes ?? 1024 * 1024)
      .then((payload) => {
        req.webhookEvent = verifyWebhook({
          payload,
          header: req.headers['x-signature'],
          secret: options.secret,
          toleranceSeconds: options.toleranceSeconds,
        });
        next();
      })
      .catch((error: unknown) => {
        if (!(error instanceof WebhookVerificationError) || options.onError === 'next') return next(error);
        res.statusCode = error.status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ code: error.code, message: error.message }));
      });
  };
}

async function rawBody(req: ExpressLikeRequest, maxBytes: number): Promise<unknown> {
  const { body } = req;
  if (Buffer.isBuffer(body) || typeof body === 'string') return body;
  if (body !== undefined && body !== null) {
    // Express 4 sets {} when a parser skipped the request: the stream is then still unread.
    const untouched = isEmptyObject(body) && !req.readableEnded && req.readable;
    if (!untouched) throw new BodyParsedError(PARSED_FIX_EXPRESS);
  }
  if (req.readableEnded || !req.readable) throw new BodyParsedError(PARSED_FIX_EXPRESS);
  const chunks: Buffer[] = await new Promise((resolve, reject) => {
    const read: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) {
        // Stop keeping it, but let the rest drain so that the 413 reaches the sender.
        req.off('data', onData);
        req.resume();
        reject(new BodyTooLargeError(maxBytes));
        return;
      }
      read.push(bytes);
    };
    req.on('data', onData);
    req.once('end', () => resolve(read));
    req.once('error', reject);
  });
  const raw = Buffer.concat(chunks);
  req.body = raw;
  return raw;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

declare global {
  // Express's own augmentation point: req.webhookEvent is typed in handlers after the middleware.
  namespace Express {
    interface Request {
      /** The event webhookMiddleware verified. */
      webhookEvent?: WebhookEvent;
    }
  }
}
