/**
 * The single table, as data. The CDK stack and the local runtime's CreateTable both read it,
 * so the deployed table and DynamoDB Local always have the same keys, indexes, TTL and stream.
 * Attribute and index names come from the key module (keys.ts), the one place that names them.
 */
import { ATTRIBUTES, INDEXES } from './keys';

export type { IndexDefinition, PhysicalIndex } from './keys';

export const TABLE = {
  partitionKey: ATTRIBUTES.partitionKey,
  sortKey: ATTRIBUTES.sortKey,
  ttlAttribute: ATTRIBUTES.ttl,
  streamView: 'NEW_IMAGE',
  indexes: INDEXES,
  /** Items the stream forwards to the outbox publisher (Lambda filter criteria on `entity`). */
  outboxEntity: 'outbox-event',
} as const;

/** The CreateTable input both DynamoDB Local and tests use (CDK maps the same data to its construct). */
export function createTableInput(tableName: string) {
  const attrs = [
    TABLE.partitionKey,
    TABLE.sortKey,
    ...Object.values(TABLE.indexes).flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attrs.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: Object.values(TABLE.indexes).map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamView },
  };
}
