import { randomUUID } from 'node:crypto';
import type { EventBridgeEvent } from 'aws-lambda';
import type { BusEvent, Clock, EventBus } from '#shared/domain/ports';
import { Persisted } from './persisted';
import type { TimedSource } from './timeline';

export interface RulePattern {
  source?: string[];
  'detail-type'?: string[];
}

export type RuleTarget = (event: EventBridgeEvent<string, unknown>) => Promise<unknown>;

interface Pending {
  rule: string;
  event: EventBridgeEvent<string, unknown>;
  dueAt: number;
  attempts: number;
}

/** EventBridge retries a failing target with backoff for up to 24 hours and 185 attempts. */
const MAX_ATTEMPTS = 185;
/**
 * Target invocations in flight at once. EventBridge itself does not serialise them (Lambda's
 * account concurrency is the limit); a bound keeps one local process from opening thousands.
 */
const MAX_IN_FLIGHT = 20;

export function matches(pattern: RulePattern, event: { source: string; 'detail-type': string }): boolean {
  if (pattern.source && !pattern.source.includes(event.source)) return false;
  if (pattern['detail-type'] && !pattern['detail-type'].includes(event['detail-type'])) return false;
  return true;
}

/**
 * EventBridge, locally: PutEvents returns at once; every rule whose pattern matches gets the event
 * delivered to its target asynchronously, with retries and backoff when the target fails.
 */
export class LocalEventBus implements EventBus, TimedSource {
  readonly name = 'eventbridge';
  private readonly rules = new Map<string, { pattern: RulePattern; target: RuleTarget }>();
  private readonly state: Persisted<{ pending: Pending[]; failed: Pending[] }>;

  constructor(
    private readonly clock: Clock,
    readonly busName: string,
    file: string | null,
  ) {
    this.state = new Persisted(file, { pending: [], failed: [] });
  }

  addRule(name: string, pattern: RulePattern, target: RuleTarget): void {
    this.rules.set(name, { pattern, target });
  }

  get failed(): readonly Pending[] {
    return this.state.value.failed;
  }

  async put(events: BusEvent[]): Promise<void> {
    const now = this.clock.now();
    for (const e of events) {
      const event: EventBridgeEvent<string, unknown> = {
        version: '0',
        id: randomUUID(),
        'detail-type': e.detailType,
        source: e.source,
        account: '000000000000',
        time: now.toISOString(),
        region: 'local',
        resources: [],
        detail: JSON.parse(JSON.stringify(e.detail)),
      };
      for (const [rule, { pattern }] of this.rules) {
        if (matches(pattern, event))
          this.state.value.pending.push({ rule, event, dueAt: now.getTime(), attempts: 0 });
      }
    }
    this.state.save();
  }

  nextDueAt(): number | undefined {
    let min: number | undefined;
    for (const p of this.state.value.pending) if (min === undefined || p.dueAt < min) min = p.dueAt;
    return min;
  }

  /**
   * Delivers every event due at `now` to its rule's target, up to MAX_IN_FLIGHT at once, as
   * EventBridge invokes a Lambda target asynchronously and Lambda runs those invocations side by
   * side. A failed delivery is retried with backoff; the first failure is rethrown once all ran.
   */
  async runNext(now: Date): Promise<boolean> {
    const at = now.getTime();
    let ran = false;
    const failures: unknown[] = [];
    const worker = async () => {
      for (let next = this.take(at); next; next = this.take(at)) {
        ran = true;
        const error = await this.deliver(next, now);
        if (error !== undefined) failures.push(error);
      }
    };
    await Promise.all(Array.from({ length: MAX_IN_FLIGHT }, worker));
    if (failures.length > 0) throw failures[0];
    return ran;
  }

  /** The earliest pending delivery due by `at`, removed from the pending list. */
  private take(at: number): Pending | undefined {
    const pending = this.state.value.pending;
    let next: Pending | undefined;
    for (const p of pending) if (p.dueAt <= at && (!next || p.dueAt < next.dueAt)) next = p;
    if (!next) return undefined;
    pending.splice(pending.indexOf(next), 1);
    this.state.save();
    return next;
  }

  /** Runs one delivery; a failure is rescheduled (or given up on) and returned. */
  private async deliver(next: Pending, now: Date): Promise<unknown> {
    const rule = this.rules.get(next.rule);
    if (!rule) return undefined;
    try {
      await rule.target(next.event);
      return undefined;
    } catch (error) {
      const attempts = next.attempts + 1;
      if (attempts >= MAX_ATTEMPTS || now.getTime() - Date.parse(next.event.time) > 86_400_000) {
        this.state.value.failed.push({ ...next, attempts });
      } else {
        const backoffMs = Math.min(2 ** attempts, 300) * 1000;
        this.state.value.pending.push({ ...next, attempts, dueAt: now.getTime() + backoffMs });
      }
      this.state.save();
      return error;
    }
  }
}
