import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { withoutSdkLogging } from '#shared/adapters/dynamodb/table';
import { Persisted } from './persisted';
import type { Drainable, DrainOptions } from './timeline';

/** Lambda's event source mapping filter, reduced to what the stack uses: equality on NewImage attributes. */
export type StreamFilter = (record: _Record) => boolean;
export type StreamConsumer = (event: DynamoDBStreamEvent) => Promise<unknown>;

/** Upper bound on how long a shard added without a closed parent would go unnoticed. */
const REDISCOVER_MS = 1_000;
/**
 * A paced drain (the background ticker's) reads a stream that was empty at its last read again only after this
 * long. Lambda polls an idle shard about four times a second; reading DynamoDB Local's stream on every
 * 20 ms tick cost it 0.7-3.8 ms of CPU per empty GetRecords, a fifth of a core with nothing to do.
 * A stream that had records is read again at once, and the test clock's advance always reads.
 */
export const IDLE_POLL_MS = 100;

interface ShardState {
  iterator?: string;
  lastSequence?: string;
  closed: boolean;
}

/**
 * DynamoDB Streams, locally: reads DynamoDB Local's own stream API shard by shard and hands the
 * records that pass the filter to the consumer in order. A failing batch is retried (the
 * checkpoint does not move), as Lambda's stream mapping does; the checkpoint survives restarts.
 */
export class LocalStreamPoller implements Drainable {
  private readonly streams: DynamoDBStreamsClient;
  private streamArn?: string;
  private readonly shards = new Map<string, ShardState>();
  private readonly checkpoint: Persisted<{ streamArn?: string; sequences: Record<string, string> }>;
  private consumer?: StreamConsumer;
  /** Wall-clock ms of the last DescribeStream; 0 forces one at the next drain. */
  private discoveredAt = 0;
  /** Wall-clock ms of the last drain that found no record; undefined after one that found some. */
  private emptyAt?: number;
  /** GetRecords calls and the records they returned, every one of them (the bench reports them). */
  readonly reads = { calls: 0, records: 0 };

  constructor(
    private readonly options: {
      client: DynamoDBClient;
      endpoint: string;
      tableName: string;
      filter: StreamFilter;
      file: string | null;
      batchSize?: number;
      onError: (error: unknown) => void;
      /** Wall-clock ms for the idle pacing (tests pass their own). */
      now?: () => number;
    },
  ) {
    this.streams = withoutSdkLogging(
      new DynamoDBStreamsClient({
        endpoint: options.endpoint,
        region: 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    this.checkpoint = new Persisted(options.file, { sequences: {} });
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  setConsumer(consumer: StreamConsumer): void {
    this.consumer = consumer;
  }

  private async discover(): Promise<void> {
    if (!this.streamArn) {
      const table = await this.options.client.send(
        new DescribeTableCommand({ TableName: this.options.tableName }),
      );
      this.streamArn = table.Table?.LatestStreamArn;
      if (!this.streamArn) throw new Error(`table ${this.options.tableName} has no stream`);
      if (this.checkpoint.value.streamArn !== this.streamArn) {
        this.checkpoint.value = { streamArn: this.streamArn, sequences: {} };
        this.checkpoint.save();
      }
    }
    this.discoveredAt = Date.now();
    let start: string | undefined;
    do {
      const out = await this.streams.send(
        new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }),
      );
      for (const shard of out.StreamDescription?.Shards ?? []) {
        const id = shard.ShardId as string;
        if (this.shards.has(id)) continue;
        this.shards.set(id, { closed: false, lastSequence: this.checkpoint.value.sequences[id] });
      }
      start = out.StreamDescription?.LastEvaluatedShardId;
    } while (start);
  }

  private async iteratorFor(shardId: string, state: ShardState): Promise<string | undefined> {
    if (state.iterator) return state.iterator;
    const out = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: shardId,
        ...(state.lastSequence
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: state.lastSequence }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    state.iterator = out.ShardIterator;
    return state.iterator;
  }

  /**
   * A new shard only appears when an open one closes (its children take the writes), so the shard
   * list is described again then, when no shard is open, and at most every REDISCOVER_MS otherwise.
   * Describing it on every drain cost a round trip per step of the test clock.
   */
  private needsDiscovery(): boolean {
    if (Date.now() - this.discoveredAt >= REDISCOVER_MS) return true;
    for (const state of this.shards.values()) if (!state.closed) return false;
    return true;
  }

  /**
   * Reads every shard up to its current end and delivers what passes the filter. A paced drain
   * skips the read while the stream was empty less than IDLE_POLL_MS ago.
   */
  async drain(options: DrainOptions = {}): Promise<void> {
    if (!this.consumer) return;
    if (options.paced && this.emptyAt !== undefined && this.now() - this.emptyAt < IDLE_POLL_MS) return;
    if (this.needsDiscovery()) await this.discover();
    let read = 0;
    for (;;) {
      const { closed, records } = await this.readShards();
      read += records;
      if (!closed) break;
      await this.discover();
    }
    this.emptyAt = read === 0 ? this.now() : undefined;
  }

  /**
   * Returns whether a shard closed, so that its children are found and read in the same drain, and
   * how many records were read.
   */
  private async readShards(): Promise<{ closed: boolean; records: number }> {
    const consumer = this.consumer as StreamConsumer;
    let closed = false;
    let read = 0;
    for (const [shardId, state] of this.shards) {
      while (!state.closed) {
        const iterator = await this.iteratorFor(shardId, state);
        if (!iterator) {
          state.closed = true;
          closed = true;
          break;
        }
        const limit = this.options.batchSize ?? 100;
        const out = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: limit }));
        const records = out.Records ?? [];
        read += records.length;
        this.reads.calls += 1;
        this.reads.records += records.length;
        const selected = records.filter(this.options.filter);
        if (selected.length > 0) {
          // Throws on failure: the iterator and checkpoint stay, so the batch is read again.
          await consumer({ Records: selected.map(toLambdaRecord(this.streamArn as string)) });
        }
        const last = records.at(-1)?.dynamodb?.SequenceNumber;
        if (last) {
          state.lastSequence = last;
          this.checkpoint.value.sequences[shardId] = last;
          this.checkpoint.save();
        }
        state.iterator = out.NextShardIterator;
        if (!out.NextShardIterator) {
          state.closed = true;
          closed = true;
        }
        // Fewer records than asked for: the shard is read to its end. Asking again at once would
        // only find what was written since, which the next drain reads (an empty GetRecords
        // costs DynamoDB Local 1-2 ms of CPU, and a busy stream got one after every batch).
        if (records.length < limit) break;
      }
    }
    return { closed, records: read };
  }
}

/**
 * The Streams client reads an empty map attribute (`{"M":{}}`) back as `{}`. An attribute value
 * always has exactly one key, so an empty object can only be an empty map: put it back, as Lambda's
 * own JSON would have it.
 */
export function repairImage(image: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!image) return image;
  const fix = (value: unknown): unknown => {
    if (!value || typeof value !== 'object') return value;
    const v = value as Record<string, unknown>;
    const keys = Object.keys(v);
    if (keys.length === 0) return { M: {} };
    if (v.M) return { M: repairImage(v.M as Record<string, unknown>) };
    if (Array.isArray(v.L)) return { L: v.L.map(fix) };
    return v;
  };
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, fix(v)]));
}

/** The record as Lambda delivers it (same field names; the SDK returns AttributeValue maps already). */
function toLambdaRecord(streamArn: string) {
  return (record: _Record) =>
    ({
      eventID: record.eventID,
      eventName: record.eventName,
      eventVersion: record.eventVersion,
      eventSource: 'aws:dynamodb',
      awsRegion: 'local',
      eventSourceARN: streamArn,
      dynamodb: {
        ...record.dynamodb,
        NewImage: repairImage(record.dynamodb?.NewImage as Record<string, unknown> | undefined),
        OldImage: repairImage(record.dynamodb?.OldImage as Record<string, unknown> | undefined),
        ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime
          ? Math.floor(new Date(record.dynamodb.ApproximateCreationDateTime).getTime() / 1000)
          : undefined,
      },
    }) as DynamoDBStreamEvent['Records'][number];
}
