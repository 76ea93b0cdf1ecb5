import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { Persisted } from './persisted';
import type { Drainable } from './timeline';

/** Lambda's event source mapping filter, reduced to what the stack uses: equality on NewImage attributes. */
export type StreamFilter = (record: _Record) => boolean;
export type StreamConsumer = (event: DynamoDBStreamEvent) => Promise<unknown>;

/** Upper bound on how long a shard added without a closed parent would go unnoticed. */
const REDISCOVER_MS = 1_000;

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

  constructor(
    private readonly options: {
      client: DynamoDBClient;
      endpoint: string;
      tableName: string;
      filter: StreamFilter;
      file: string | null;
      batchSize?: number;
      onError: (error: unknown) => void;
    },
  ) {
    this.streams = new DynamoDBStreamsClient({
      endpoint: options.endpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    this.checkpoint = new Persisted(options.file, { sequences: {} });
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

  /** Reads every shard up to its current end and delivers what passes the filter. */
  async drain(): Promise<void> {
    if (!this.consumer) return;
    if (this.needsDiscovery()) await this.discover();
    while (await this.readShards()) await this.discover();
  }

  /** Returns whether a shard closed, so that its children are found and read in the same drain. */
  private async readShards(): Promise<boolean> {
    const consumer = this.consumer as StreamConsumer;
    let closed = false;
    for (const [shardId, state] of this.shards) {
      while (!state.closed) {
        const iterator = await this.iteratorFor(shardId, state);
        if (!iterator) {
          state.closed = true;
          closed = true;
          break;
        }
        const out = await this.streams.send(
          new GetRecordsCommand({ ShardIterator: iterator, Limit: this.options.batchSize ?? 100 }),
        );
        const records = out.Records ?? [];
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
        if (records.length === 0) break;
      }
    }
    return closed;
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
