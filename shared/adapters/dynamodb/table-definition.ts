/**
 * The single table, as data. The CDK stack and the local runtime's CreateTable both read it,
 * so the deployed table and DynamoDB Local always have the same keys, indexes, TTL and stream.
 */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  streamView: 'NEW_IMAGE',
  indexes: {
    /** Secondary lookups of one entity by another identifier (uuid, gatewayPayId, e-mail …). */
    gsi1: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** Work queues by status and due time (sweeps of due charges, expiring sessions); never a Scan. */
    gsi2: { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /** Lookup by a provider's id (transactions by gatewayPayId). */
    gsi3: { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    /** Second listing of one entity (transactions of a product). */
    gsi4: { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
    /** Third listing of one entity (transactions of a customer, which also serves the name/e-mail search). */
    gsi5: { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
  },
  /** Items the stream forwards to the outbox publisher (Lambda filter criteria on `entity`). */
  outboxEntity: 'outbox-event',
} as const;

export type IndexName = keyof typeof TABLE.indexes;

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
