import type { Api } from './api';
import { type Envelope, forwardEvent, forwardLine } from './forward';

/** Events whose timestamp is this close to the newest one seen are read again (a later commit). */
const OVERLAP_MS = 60_000;
/**
 * Polls (two list calls each) count against the key's 100 requests a minute like any call: at most
 * 60 a minute while events arrive, 24 when idle, so the seller's own integration keeps most of its limit.
 */
const FASTEST_POLL_MS = 2_000;
const SLOWEST_POLL_MS = 5_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A `to` past any test clock's time (the list stops at the service's now by default). */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';

/**
 * Every event at or after `from` (ISO) and up to the service's now, or (`ahead`) to any time, through
 * the list's cursor; newest first, as the API pages.
 */
async function eventsSince(api: Api, from: string | undefined, ahead = false): Promise<Envelope[]> {
  const out: Envelope[] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: '100' });
    if (from) query.set('from', from);
    if (ahead) query.set('to', END_OF_TIME);
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
 * once committed, so a window behind the newest one is read again and deduplicated by id. An event
 * of an object on a test clock is stamped in the clock's time, maybe months ahead: a second list
 * from the newest event up to now reaches those, and the window follows only the events up to now.
 */
export async function listen(api: Api, options: ListenOptions): Promise<void> {
  const seen = new Map<string, number>();
  let newest: number | undefined;
  let from = options.since ? new Date(options.since).toISOString() : undefined;
  if (!from) {
    const latest = (await api.get('/api/events?limit=1')).data[0] as Envelope | undefined;
    if (latest) {
      from = latest.timestamp;
      newest = Date.parse(from);
      // What exists now is history: marked seen, never forwarded.
      for (const e of await eventsSince(api, from, true)) seen.set(e.id, Date.parse(e.timestamp));
    }
  }
  options.ready();
  let delay = FASTEST_POLL_MS;
  while (!options.stopped()) {
    const upToNow = await eventsSince(api, from);
    for (const e of upToNow) newest = Math.max(newest ?? 0, Date.parse(e.timestamp));
    const ahead = newest === undefined ? [] : await eventsSince(api, new Date(newest).toISOString(), true);
    const byId = new Map([...ahead, ...upToNow].map((e) => [e.id, e]));
    const fresh = [...byId.values()]
      .filter((e) => !seen.has(e.id))
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    for (const envelope of fresh) {
      if (options.stopped()) return;
      seen.set(envelope.id, Date.parse(envelope.timestamp));
      const result = await forwardEvent(options.forwardTo, options.secret, envelope);
      options.print(forwardLine(envelope, options.forwardTo, result));
    }
    if (newest !== undefined) {
      const floor = newest - OVERLAP_MS;
      from = new Date(floor).toISOString();
      for (const [id, at] of seen) if (at < floor) seen.delete(id);
    }
    delay = fresh.length > 0 ? FASTEST_POLL_MS : Math.min(SLOWEST_POLL_MS, delay * 2);
    await pause(delay);
  }
}
