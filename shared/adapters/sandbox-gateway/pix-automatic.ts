import type {
  ChargeRequest,
  ChargeResult,
  PixAuthorizationStatus,
  PixAutomaticChargeRequest,
} from '#shared/domain/payments/gateway';
import { PIX_AUTHORIZATION_NOT_FOUND } from '#shared/domain/payments/sandbox-helpers';
import type { Clock } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError } from '#shared/errors';
import { randomBase62 } from '#shared/ids';
import { keys } from '../dynamodb/keys';
import { ConditionFailedError, type Item, type Table, type TransactItem } from '../dynamodb/table';
import { chargeRecord, replayed, writeOnce } from './records';

/**
 * The sandbox's Pix Automático (BCB's recurring pix): a pix charge that asks for a consent issues
 * an authorization, pending until the buyer pays that first charge (the consent rides on its QR
 * code), then active: the seller debits it without the buyer, up to the consented maximum, until
 * the buyer revokes it at the bank (a test helper plays the bank).
 */

/** A debit's result carries a card summary by the port's type; a pix debit has no card. */
const NO_CARD = { brand: 'pix', last4: '' };

const REASONS = {
  pending: 'The Pix Automático authorization is not active: the first pix has not been paid.',
  revoked: 'The payer revoked the Pix Automático authorization.',
  amount_above_limit: 'The amount is above the maximum the payer authorized.',
} as const;

/** The authorization a consenting pix charge issues, pending, written with the charge's record. */
export function consentAuthorization(
  request: ChargeRequest,
  gatewayPayId: number,
  now: Date,
): { authorizationId: string; item: Item } | null {
  const consent = request.recurringConsent;
  if (request.method !== 'pix' || !consent) return null;
  const authorizationId = `pixauth_${randomBase62(24)}`;
  return {
    authorizationId,
    item: {
      ...keys.sandboxPixAuthorization(authorizationId),
      entity: 'sandbox-pix-authorization',
      version: 1,
      authorizationId,
      status: 'pending' satisfies PixAuthorizationStatus,
      sellerId: request.tenant.sellerId,
      environment: request.tenant.environment,
      maxAmountCentavos: consent.maxAmountCentavos,
      description: consent.description,
      firstGatewayPayId: gatewayPayId,
      createdAt: now.toISOString(),
    },
  };
}

async function authorizationOf(table: Table, tenant: Tenant, authorizationId: string): Promise<Item | null> {
  const item = await table.get<Item>(keys.sandboxPixAuthorization(authorizationId), { consistent: true });
  // Another account's authorization is as unknown as a missing one.
  if (!item || item.sellerId !== tenant.sellerId || item.environment !== tenant.environment) return null;
  return item;
}

const activate = (authorizationId: string, from: PixAuthorizationStatus[], now: Date) => ({
  Key: keys.sandboxPixAuthorization(authorizationId),
  UpdateExpression: 'SET #s = :active, activatedAt = :now, version = version + :one',
  ConditionExpression: `#s IN (${from.map((_, i) => `:f${i}`).join(', ')})`,
  ExpressionAttributeNames: { '#s': 'status' },
  ExpressionAttributeValues: {
    ':active': 'active',
    ':now': now.toISOString(),
    ':one': 1,
    ...Object.fromEntries(from.map((f, i) => [`:f${i}`, f])),
  },
});

/**
 * The write that makes a charge's pending authorization active when that charge is paid (none for a
 * charge without one, or whose authorization is no longer pending): goes in the payment's transaction.
 */
export async function activationOnPayment(
  table: Table,
  gatewayPayId: number,
  now: Date,
): Promise<TransactItem[]> {
  const charge = await table.get<Item>(keys.sandboxCharge(gatewayPayId), { consistent: true });
  const authorizationId = charge?.pixAuthorizationId as string | undefined;
  if (!authorizationId) return [];
  const authorization = await table.get<Item>(keys.sandboxPixAuthorization(authorizationId), {
    consistent: true,
  });
  if (authorization?.status !== 'pending') return [];
  return [{ Update: activate(authorizationId, ['pending'], now) }];
}

/**
 * A debit without the buyer: approved (a paid charge) on an active authorization within its maximum;
 * declined `authorization_revoked` on a pending or revoked one, `amount_above_limit` above the maximum.
 * One charge per idempotency key; NotFoundError for an authorization this account does not own.
 */
export async function chargePixAutomatic(
  options: { table: Table; clock: Clock },
  request: PixAutomaticChargeRequest,
  withFreshId: (charge: (gatewayPayId: number) => Promise<ChargeResult>) => Promise<ChargeResult>,
): Promise<ChargeResult> {
  const { table, clock } = options;
  const fingerprint = `pix:${request.authorizationId}:${request.amountCentavos}`;
  const first = await replayed(table, request.tenant, request.idempotencyKey, fingerprint);
  if (first) return first;
  const authorization = await authorizationOf(table, request.tenant, request.authorizationId);
  if (!authorization) throw new NotFoundError(PIX_AUTHORIZATION_NOT_FOUND);
  const status = authorization.status as PixAuthorizationStatus;
  const refusal =
    status !== 'active'
      ? { failureCode: 'authorization_revoked', failureReason: REASONS[status] }
      : request.amountCentavos > Number(authorization.maxAmountCentavos)
        ? { failureCode: 'amount_above_limit', failureReason: REASONS.amount_above_limit }
        : null;
  const now = clock.now();
  return withFreshId(async (gatewayPayId) => {
    const result: ChargeResult = refusal
      ? {
          outcome: 'declined',
          gatewayPayId,
          card: NO_CARD,
          ...refusal,
          gatewayFailureCode: `sandbox_${refusal.failureCode}`,
        }
      : {
          outcome: 'approved',
          gatewayPayId,
          card: NO_CARD,
          authorizationCode: randomBase62(6).toUpperCase(),
        };
    const record: Item = {
      ...chargeRecord({ ...request, gatewayPayId, method: 'pix', now }),
      status: refusal ? 'failed' : 'paid',
      pixAuthorizationId: request.authorizationId,
      pixAutomatic: true,
    };
    return writeOnce(table, request, fingerprint, record, result);
  });
}

export async function pixAuthorizationStatus(
  table: Table,
  tenant: Tenant,
  authorizationId: string,
): Promise<PixAuthorizationStatus | null> {
  const item = await authorizationOf(table, tenant, authorizationId);
  return item ? (item.status as PixAuthorizationStatus) : null;
}

/**
 * The bank's side, for the test helpers: `approve` activates a pending authorization without a
 * payment (an active one stays as it is; a revoked one cannot come back: 409), `revoke` revokes it
 * (again is fine). Answers the status after.
 */
export async function setPixAuthorization(
  options: { table: Table; clock: Clock },
  tenant: Tenant,
  authorizationId: string,
  action: 'approve' | 'revoke',
): Promise<PixAuthorizationStatus> {
  const { table, clock } = options;
  const item = await authorizationOf(table, tenant, authorizationId);
  if (!item) throw new NotFoundError(PIX_AUTHORIZATION_NOT_FOUND);
  const now = clock.now();
  try {
    if (action === 'approve') {
      if (item.status === 'active') return 'active';
      await table.update(activate(authorizationId, ['pending'], now));
      return 'active';
    }
    if (item.status === 'revoked') return 'revoked';
    await table.update({
      Key: keys.sandboxPixAuthorization(authorizationId),
      UpdateExpression: 'SET #s = :revoked, revokedAt = :now, version = version + :one',
      ConditionExpression: '#s IN (:pending, :active)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':revoked': 'revoked',
        ':now': now.toISOString(),
        ':one': 1,
        ':pending': 'pending',
        ':active': 'active',
      },
    });
    return 'revoked';
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    // Changed between the read and the write: answer from what it is now.
    const current = (await pixAuthorizationStatus(table, tenant, authorizationId)) as PixAuthorizationStatus;
    if (action === 'revoke' || current === 'active') return current;
    throw new ConflictError(
      `The Pix authorization is ${current}; it cannot become active`,
      'sandbox_invalid_state',
    );
  }
}
