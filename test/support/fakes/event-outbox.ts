import type { DomainEvent } from '#shared/domain/events/events';
import type { EventOutbox } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';

/**
 * The outbox on its own (EventOutbox), keyed by event id like the table's outbox items: a write
 * is all or nothing, and an id already stored (or twice in one write) throws ConflictError
 * (reason `already_exists`) and writes none of the batch.
 */
export class FakeEventOutbox implements EventOutbox {
  readonly stored = new Map<string, DomainEvent>();

  async write(events: DomainEvent[]): Promise<void> {
    const ids = events.map((e) => e.envelope.id);
    if (new Set(ids).size !== ids.length || ids.some((id) => this.stored.has(id)))
      throw new ConflictError('The event already exists', 'already_exists', { reason: 'already_exists' });
    for (const event of events) this.stored.set(event.envelope.id, structuredClone(event));
  }

  get(id: string): DomainEvent | undefined {
    const found = this.stored.get(id);
    return found ? structuredClone(found) : undefined;
  }
}
