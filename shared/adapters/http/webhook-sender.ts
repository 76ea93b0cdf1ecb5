import type { AttemptResult, WebhookSender } from '#shared/domain/ports';

/**
 * POSTs a delivery with fetch. Redirects are not followed (a redirect to a private address would
 * get around the SSRF check); the answer must arrive within the timeout.
 */
export const fetchSender: WebhookSender = {
  async post(url, body, headers, timeoutMs): Promise<AttemptResult> {
    const started = performance.now();
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel().catch(() => undefined);
      return { statusCode: res.status, durationMs: Math.round(performance.now() - started), error: null };
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Error';
      const reason =
        name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `connection failed (${name})`;
      return { statusCode: null, durationMs: Math.round(performance.now() - started), error: reason };
    }
  },
};
