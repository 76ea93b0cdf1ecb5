/** What every webhook delivery carries. `id` is the same on every retry and resend of the event. */
export interface EventEnvelope<T = unknown> {
  id: string;
  event: string;
  timestamp: string;
  data: T;
}

export const EVENT_ID_PREFIX = 'evt';
