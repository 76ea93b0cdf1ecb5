import { signatureHeader } from '../../../events/signing.ts';

/** The envelope every webhook carries (GET /api/events answers the same fields). */
export interface Envelope {
  id: string;
  event: string;
  timestamp: string;
  data: unknown;
}

const FORWARD_TIMEOUT_MS = 10_000;

/**
 * Posts an event to a local URL as the service delivers a webhook: the same body (the envelope as
 * JSON), the same headers, and the signature made by the service's own signing code with the
 * CLI's secret instead of an endpoint's. A receiver's check (the SDK's, or events/signing.ts)
 * accepts it unchanged once given that secret.
 */
export async function forwardEvent(
  url: string,
  secret: string,
  envelope: Envelope,
): Promise<{ status: number | null; error?: string }> {
  const body = JSON.stringify({
    id: envelope.id,
    event: envelope.event,
    timestamp: envelope.timestamp,
    data: envelope.data,
  });
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature': signatureHeader([secret], timestamp, body),
        'x-event-id': envelope.id,
        'x-event-type': envelope.event,
        'user-agent': 'payment-service-cli',
      },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return { status: res.status };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return { status: null, error: e.cause?.code ?? e.message };
  }
}

export const forwardLine = (
  envelope: Envelope,
  url: string,
  result: { status: number | null; error?: string },
) =>
  `${envelope.timestamp}  --> ${envelope.event} [${envelope.id}]  <-- ${
    result.status === null ? `[ERROR] ${result.error}` : `[${result.status}]`
  } POST ${url}`;
