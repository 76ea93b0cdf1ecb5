import { type EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { BusEvent, EventBus } from '#shared/domain/ports';

/** PutEvents takes at most 10 entries and can fail per entry with a 200 answer: both handled here. */
export class EventBridgeBus implements EventBus {
  constructor(
    private readonly client: EventBridgeClient,
    private readonly busName: string,
  ) {}

  async put(events: BusEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 10) {
      const batch = events.slice(i, i + 10);
      const out = await this.client.send(
        new PutEventsCommand({
          Entries: batch.map((e) => ({
            EventBusName: this.busName,
            Source: e.source,
            DetailType: e.detailType,
            Detail: JSON.stringify(e.detail),
          })),
        }),
      );
      if ((out.FailedEntryCount ?? 0) > 0) {
        const codes = (out.Entries ?? []).flatMap((e) => (e.ErrorCode ? [e.ErrorCode] : []));
        throw new Error(
          `EventBridge rejected ${out.FailedEntryCount} of ${batch.length} events: ${codes.join(', ')}`,
        );
      }
    }
  }
}
