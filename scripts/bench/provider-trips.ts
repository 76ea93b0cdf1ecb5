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

/** The sandbox provider's own commands: every partition they name is one of its (`SANDBOX#…`). */
export function providerOnly(input: unknown): boolean {
  const pks = partitionKeys(input);
  return pks.length > 0 && pks.every((pk) => pk.startsWith(PROVIDER_PREFIX));
}

/**
 * Of the commands one request caused, in order, those of requests it sent to the service (the
 * sandbox's notification to the webhook route): the request's own is the first one seen; a
 * command outside any request (undefined) is counted as the request's.
 */
export function nestedIn<T extends { request: number | undefined }>(sent: T[]): (t: T) => boolean {
  const own = sent.find((s) => s.request !== undefined)?.request;
  return (t) => t.request !== undefined && t.request !== own;
}
