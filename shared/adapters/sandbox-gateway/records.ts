import type { ChargeMethod, ChargeResult } from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { sandboxChargeEntity } from '../dynamodb/entities/sandbox-charge';
import { keys } from '../dynamodb/keys';
import { ConditionFailedError, type Item, type Table } from '../dynamodb/table';

/** The sandbox's own record of a charge (never a card number); callers add status and method details. */
export function chargeRecord(charge: {
  gatewayPayId: number;
  method: ChargeMethod;
  amountCentavos: number;
  tenant: Tenant;
  transactionId: number;
  now: Date;
}): Item {
  return {
    ...sandboxChargeEntity.toItem({
      gatewayPayId: charge.gatewayPayId,
      sellerId: charge.tenant.sellerId,
      createdAt: charge.now.toISOString(),
    }),
    method: charge.method,
    amount: charge.amountCentavos,
    refunded: 0,
    refundable: charge.amountCentavos,
    transactionId: charge.transactionId,
  };
}

/**
 * The first answer to an idempotency key of this account, or null for a key never used. A key
 * first used for another charge (another card or authorization, another amount) is refused, as
 * Stripe refuses an Idempotency-Key reused with other parameters.
 */
export async function replayed(
  table: Table,
  tenant: Tenant,
  idempotencyKey: string,
  fingerprint: string,
): Promise<ChargeResult | null> {
  const item = await table.get<Item>(keys.sandboxIdempotency(tenant, idempotencyKey), { consistent: true });
  if (!item) return null;
  if (item.fingerprint !== fingerprint) {
    throw new ConflictError(
      'The idempotency key was already used for a different charge',
      'idempotency_key_reused',
    );
  }
  return item.result as ChargeResult;
}

/** Attempts of a key's write that lost a transaction conflict (a concurrent call with the same key). */
const CONFLICT_ATTEMPTS = 3;

/** DynamoDB cancels a transaction that touches an item another transaction is writing. */
function transactionConflict(error: unknown): boolean {
  const canceled = (error ?? {}) as { name?: string; CancellationReasons?: { Code?: string }[] };
  return (
    canceled.name === 'TransactionCanceledException' &&
    (canceled.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict')
  );
}

/**
 * Writes a charge record and the key that asked for it in one transaction, so a key never exists
 * without its charge nor a charge twice for one key. When a concurrent call with the same key wrote
 * first, answers that call's result (this charge is not written). A taken gateway id (the record's
 * condition) is rethrown as the ConditionFailedError the caller draws another id on.
 */
export async function writeOnce(
  table: Table,
  request: { tenant: Tenant; idempotencyKey: string },
  fingerprint: string,
  record: Item,
  result: ChargeResult,
): Promise<ChargeResult> {
  const { tenant, idempotencyKey } = request;
  const keyItem: Item = {
    ...keys.sandboxIdempotency(tenant, idempotencyKey),
    entity: 'sandbox-idempotency-key',
    version: 1,
    sellerId: tenant.sellerId,
    environment: tenant.environment,
    fingerprint,
    gatewayPayId: result.gatewayPayId,
    result,
    createdAt: record.createdAt,
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await table.transact([
        { Put: { Item: record, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { Item: keyItem, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]);
      return result;
    } catch (error) {
      const keyTaken = error instanceof ConditionFailedError && error.failedIndexes.includes(1);
      const conflict = transactionConflict(error) && attempt < CONFLICT_ATTEMPTS;
      if (!keyTaken && !conflict) throw error;
      if (conflict) await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
      const first = await replayed(table, tenant, idempotencyKey, fingerprint);
      if (first) return first;
      if (keyTaken) throw error;
    }
  }
}
