import type { DomainEvent } from '#shared/domain/events/events';

/** The batches of the fakeAtomically whose writes are being applied, per outbox. */
let openBatches: Map<FakeOutbox, DomainEvent[]> | null = null;

/**
 * Runs `apply` (the synchronous writes of one fakeAtomically) so that each outbox gets the events
 * written into it as one batch, as one TransactWriteItems writes its outbox items together.
 */
export function inOneOutboxBatch(apply: () => void): void {
  const batches = new Map<FakeOutbox, DomainEvent[]>();
  openBatches = batches;
  try {
    apply();
  } finally {
    openBatches = null;
  }
  for (const [outbox, events] of batches) outbox.batches.push(events);
}

/** What a fake repository wrote to the outbox, in order, with the transaction it was written in. */
export class FakeOutbox {
  readonly batches: DomainEvent[][] = [];
  write(events: DomainEvent[]): void {
    // Inside a unit of work's writes, every repository's events go in the unit's one batch.
    if (!openBatches) {
      this.batches.push(events);
      return;
    }
    const batch = openBatches.get(this) ?? [];
    openBatches.set(this, [...batch, ...events]);
  }
  get events(): DomainEvent[] {
    return this.batches.flat();
  }
  names(): string[] {
    return this.events.map((e) => e.envelope.event);
  }
}
