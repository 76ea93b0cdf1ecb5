import type { DomainEvent } from '../../../shared/domain/events/events';

/** What a fake repository wrote to the outbox, in order, with the transaction it was written in. */
export class FakeOutbox {
  readonly batches: DomainEvent[][] = [];
  write(events: DomainEvent[]): void {
    this.batches.push(events);
  }
  get events(): DomainEvent[] {
    return this.batches.flat();
  }
  names(): string[] {
    return this.events.map((e) => e.envelope.event);
  }
}
