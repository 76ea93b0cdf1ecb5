import type { Api } from './api';
import { type Envelope, forwardEvent, forwardLine } from './forward';

/** Events whose timestamp is this close to the newest one seen are read again (a later commit). */
const OVERLAP_MS = 60_000;
/**
 * Polls count against the key's 100 requests a minute like any call: at most 60 a minute while
 * events arrive, 12 when idle, so the seller's own integration keeps most of its limit.
 */
const FASTEST_POLL_MS = 1_000;
const SLOWEST_POLL_MS = 5_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every event at or after `from` (ISO), through the list's cursor; newest first, as the API pages. */
async function eventsSince(api: Api, from: string | undefined): Promise<Envelope[]> {
  const out: Envelope[] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: '100' });
    if (from) query.set('from', from);
    if (cursor) query.set('cursor', cursor);
    const page = await api.get(`/api/events?${query}`);
    out.push(...(page.data as Envelope[]));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

export interface ListenOptions {
  forwardTo: string;
  secret: string;
  /** ISO instant to replay from; absent: only events that happen from now on. */
  since?: string;
  print: (line: string) => void;
  /** Called once what exists now is known: from then on every new event is forwarded. */
  ready: () => void;
  stopped: () => boolean;
}

/**
 * Follows the seller's events through GET /api/events (polling, faster while events arrive) and
 * forwards each one once, oldest first. Events are stamped when their change is made and listed
 * once committed, so a window behind the newest one is read again and deduplicated by id.
 */
export async function listen(api: Api, options: ListenOptions): Promise<void> {
  const seen = new Map<string, number>();
  let from = options.since ? new Date(options.since).toISOString() : undefined;
  if (!from) {
    const newest = (await api.get('/api/events?limit=1')).data[0] as Envelope | undefined;
    if (newest) {
      from = newest.timestamp;
      // What exists now is history: marked seen, never forwarded.
      for (const e of await eventsSince(api, from)) seen.set(e.id, Date.parse(e.timestamp));
    }
  }
  options.ready();
  let delay = FASTEST_POLL_MS;
  while (!options.stopped()) {
    const fresh = (await eventsSince(api, from)).filter((e) => !seen.has(e.id)).reverse();
    for (const envelope of fresh) {
      if (options.stopped()) return;
      seen.set(envelope.id, Date.parse(envelope.timestamp));
      const result = await forwardEvent(options.forwardTo, options.secret, envelope);
      options.print(forwardLine(envelope, options.forwardTo, result));
    }
    if (seen.size > 0) {
      const newest = Math.max(...seen.values());
      const floor = newest - OVERLAP_MS;
      from = new Date(floor).toISOString();
      for (const [id, at] of seen) if (at < floor) seen.delete(id);
    }
    delay = fresh.length > 0 ? FASTEST_POLL_MS : Math.min(SLOWEST_POLL_MS, delay * 2);
    await pause(delay);
  }
}
