/**
 * The sandbox provider keeps its charges, tokens and idempotency keys in the service's table
 * (`SANDBOX#…` partitions); a real provider keeps them in its own systems. The bench counts those
 * commands apart from the service's round trips (the endpoints and the renewal job).
 */
export const PROVIDER_PREFIX = 'SANDBOX#';

/** The partition keys a command names, marshalled or not (single items, transactions, batches). */
export function partitionKeys(input: unknown): string[] {
  const out: string[] = [];
  const pkOf = (item: unknown) => {
    const pk = (item as { pk?: unknown } | undefined)?.pk;
    if (typeof pk === 'string') out.push(pk);
    else if (typeof (pk as { S?: unknown } | undefined)?.S === 'string') out.push((pk as { S: string }).S);
  };
  const request = input as {
    Key?: unknown;
    Item?: unknown;
    TransactItems?: Record<string, { Key?: unknown; Item?: unknown }>[];
    ExpressionAttributeValues?: Record<string, unknown>;
    KeyConditionExpression?: string;
  };
  pkOf(request?.Key);
  pkOf(request?.Item);
  for (const entry of request?.TransactItems ?? []) {
    for (const op of Object.values(entry)) {
      pkOf(op?.Key);
      pkOf(op?.Item);
    }
  }
  return out;
}
