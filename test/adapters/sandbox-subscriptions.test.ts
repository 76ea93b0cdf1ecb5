import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#shared/adapters/dynamodb/keys';
import type { Table } from '#shared/adapters/dynamodb/table';
import { SandboxGateway } from '#shared/adapters/sandbox-gateway/sandbox-gateway';
import type {
  CardInput,
  ChargeRequest,
  PixAutomaticChargeRequest,
  SavedCardChargeRequest,
} from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError } from '#shared/errors';
import { freshTable } from '../contract/support';
import { FakeClock } from '../support/fakes/clock';
import { Receiver } from '../support/receiver';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER: Tenant = { sellerId: 8, environment: 'test' };
const buyer = { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com' };
const ID_BASE = 500_000_000_000_000;

/** Where the sandbox sends its signed notifications when a test pays a pix. */
const receiver = new Receiver();
beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});

const card = (number: string, overrides: Partial<CardInput> = {}): CardInput => ({
  number,
  holderName: 'MARIA SOUZA',
  expiryMonth: 3,
  expiryYear: 2027,
  cvv: '123',
  ...overrides,
});

let keyCount = 0;
const savedCharge = (
  token: string,
  idempotencyKey = `sub_key_${++keyCount}`,
  overrides: Partial<SavedCardChargeRequest> = {},
): SavedCardChargeRequest => ({
  tenant: SELLER,
  transactionId: 2,
  amountCentavos: 4_990,
  installments: 1,
  description: 'Assinatura',
  customer: buyer,
  token,
  idempotencyKey,
  ...overrides,
});

const consentingPix = (maxAmountCentavos = 10_000, tenant = SELLER): ChargeRequest => ({
  tenant,
  transactionId: 3,
  method: 'pix',
  amountCentavos: 4_990,
  installments: 1,
  description: 'Assinatura mensal',
  customer: buyer,
  recurringConsent: { maxAmountCentavos, description: 'Assinatura mensal' },
});

const debit = (
  authorizationId: string,
  overrides: Partial<PixAutomaticChargeRequest> = {},
): PixAutomaticChargeRequest => ({
  tenant: SELLER,
  transactionId: 4,
  amountCentavos: 4_990,
  description: 'Assinatura mensal',
  authorizationId,
  idempotencyKey: `sub_key_${++keyCount}`,
  ...overrides,
});

/** A sandbox whose gateway ids are ID_BASE+1, +2, … so a test knows every id it could have drawn. */
async function sandbox() {
  const table: Table = await freshTable('sandbox-subs');
  const clock = new FakeClock('2026-03-10T15:00:00.000Z');
  let draws = 0;
  const gateway = new SandboxGateway({
    table,
    clock,
    notificationKey: { key: async () => new Uint8Array(32).fill(1) },
    pdfKey: { key: async () => new Uint8Array(32).fill(2) },
    publicBaseUrl: receiver.url.replace(/\/hook$/, ''),
    randomId: () => ID_BASE + ++draws,
  });
  const chargeRecords = async () => {
    const found = [];
    for (let i = 1; i <= draws; i++) {
      const item = await table.get(keys.sandboxCharge(ID_BASE + i), { consistent: true });
      if (item) found.push(item);
    }
    return found;
  };
  return { table, clock, gateway, draws: () => draws, chargeRecords };
}

async function tokenized(gateway: SandboxGateway, c: CardInput) {
  const result = await gateway.tokenizeCard({ tenant: SELLER, customer: buyer, card: c });
  if (result.outcome !== 'approved') throw new Error(`not tokenized: ${JSON.stringify(result)}`);
  return result.savedCard;
}

async function authorization(gateway: SandboxGateway, maxAmountCentavos?: number) {
  const first = await gateway.createCharge(consentingPix(maxAmountCentavos));
  if (first.outcome !== 'pending' || !first.pix?.authorizationId) throw new Error('no authorization');
  return { gatewayPayId: first.gatewayPayId, authorizationId: first.pix.authorizationId };
}

describe('tokenizeCard', () => {
  it('keeps an approving card as a token record an approved saveCard charge would, without a charge', async () => {
    const { gateway, table, draws } = await sandbox();
    const result = await gateway.tokenizeCard({
      tenant: SELLER,
      customer: buyer,
      card: card('4242424242424242'),
    });
    expect(result).toEqual({
      outcome: 'approved',
      savedCard: {
        token: expect.stringMatching(/^tok_[0-9A-Za-z]{24}$/),
        brand: 'visa',
        last4: '4242',
        expiryMonth: 3,
        expiryYear: 2027,
      },
    });
    expect(draws()).toBe(0); // no gateway id drawn: no charge record
    const token = result.outcome === 'approved' ? result.savedCard.token : '';
    const record = await table.get(keys.sandboxCardToken(token));
    expect(record).toMatchObject({
      entity: 'sandbox-card-token',
      sellerId: 7,
      environment: 'test',
      outcomeClass: { outcome: 'approved' },
    });
    expect(JSON.stringify(record)).not.toContain('4242424242424242');
    expect((await gateway.chargeSavedCard(savedCharge(token))).outcome).toBe('approved');
  });

  it.each([
    ['4000000000000002', {}, 'card_declined'],
    ['4000000000009995', {}, 'insufficient_funds'],
    ['4111111111111111', { expiryMonth: 2, expiryYear: 2026 }, 'expired_card'],
    ['4111111111111111', { cvv: '12' }, 'incorrect_cvc'],
    ['4000000000000259', {}, 'processing_error'],
    ['4532015112830366', {}, 'card_declined'],
  ])('declines %s %j with %s and keeps nothing', async (number, overrides, failureCode) => {
    const { gateway, draws } = await sandbox();
    const result = await gateway.tokenizeCard({
      tenant: SELLER,
      customer: buyer,
      card: card(number, overrides),
    });
    expect(result).toEqual({
      outcome: 'declined',
      failureCode,
      failureReason: expect.any(String),
      gatewayFailureCode: `sandbox_${failureCode}`,
    });
    expect(draws()).toBe(0);
  });

  it('tokenizes a later-decline number, whose saved card then declines', async () => {
    const { gateway } = await sandbox();
    const { token } = await tokenized(gateway, card('4000000000009987'));
    expect(await gateway.chargeSavedCard(savedCharge(token))).toMatchObject({
      outcome: 'declined',
      failureCode: 'insufficient_funds',
    });
  });
});

describe('chargeSavedCard idempotency', () => {
  it('answers the first result to the same key and writes one charge record', async () => {
    const { gateway, chargeRecords } = await sandbox();
    const { token } = await tokenized(gateway, card('4111111111111111'));
    const first = await gateway.chargeSavedCard(savedCharge(token, 'sub_a_c1_a1'));
    const again = await gateway.chargeSavedCard(savedCharge(token, 'sub_a_c1_a1'));
    expect(first.outcome).toBe('approved');
    expect(again).toEqual(first);
    expect(await chargeRecords()).toHaveLength(1);
    const other = await gateway.chargeSavedCard(savedCharge(token, 'sub_a_c2_a1'));
    expect(other.gatewayPayId).not.toBe(first.gatewayPayId);
    expect(await chargeRecords()).toHaveLength(2);
  });

  it('replays a decline too, even after the card was set to approve', async () => {
    const { gateway } = await sandbox();
    const { token } = await tokenized(gateway, card('4000000000000341'));
    const first = await gateway.chargeSavedCard(savedCharge(token, 'k-decline'));
    expect(first).toMatchObject({ outcome: 'declined', failureCode: 'card_declined' });
    await gateway.setSavedCardOutcome(SELLER, token, { outcome: 'approved' });
    expect(await gateway.chargeSavedCard(savedCharge(token, 'k-decline'))).toEqual(first);
    expect((await gateway.chargeSavedCard(savedCharge(token, 'k-next'))).outcome).toBe('approved');
  });

  it('charges once when two calls with one key race', async () => {
    const { gateway, chargeRecords } = await sandbox();
    const { token } = await tokenized(gateway, card('4111111111111111'));
    const results = await Promise.all(
      Array.from({ length: 4 }, () => gateway.chargeSavedCard(savedCharge(token, 'k-race'))),
    );
    expect(new Set(results.map((r) => r.gatewayPayId)).size).toBe(1);
    const records = await chargeRecords();
    expect(records).toHaveLength(1);
    expect(records[0].gatewayPayId).toBe(results[0].gatewayPayId);
  });

  it('answers the first result after the card was detached', async () => {
    const { gateway } = await sandbox();
    const { token } = await tokenized(gateway, card('4111111111111111'));
    const first = await gateway.chargeSavedCard(savedCharge(token, 'k-detach'));
    await gateway.detachSavedCard(SELLER, token);
    expect(await gateway.chargeSavedCard(savedCharge(token, 'k-detach'))).toEqual(first);
    await expect(gateway.chargeSavedCard(savedCharge(token, 'k-new'))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a key reused for another amount or card', async () => {
    const { gateway, chargeRecords } = await sandbox();
    const { token } = await tokenized(gateway, card('4111111111111111'));
    const other = await tokenized(gateway, card('5555555555554444'));
    await gateway.chargeSavedCard(savedCharge(token, 'k-reused'));
    for (const request of [
      savedCharge(token, 'k-reused', { amountCentavos: 5_000 }),
      savedCharge(other.token, 'k-reused'),
    ]) {
      const error = await gateway.chargeSavedCard(request).catch((e) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.message).toBe('The idempotency key was already used for a different charge');
    }
    expect(await chargeRecords()).toHaveLength(1);
  });

  it('keeps keys per account: another seller using the same key is a charge of its own', async () => {
    const { gateway } = await sandbox();
    const mine = await tokenized(gateway, card('4111111111111111'));
    const theirs = await gateway.tokenizeCard({
      tenant: OTHER,
      customer: buyer,
      card: card('4111111111111111'),
    });
    if (theirs.outcome !== 'approved') throw new Error('not tokenized');
    const a = await gateway.chargeSavedCard(savedCharge(mine.token, 'shared-key'));
    const b = await gateway.chargeSavedCard(
      savedCharge(theirs.savedCard.token, 'shared-key', { tenant: OTHER }),
    );
    expect(b.outcome).toBe('approved');
    expect(b.gatewayPayId).not.toBe(a.gatewayPayId);
  });
});

describe('the saved-card outcome override', () => {
  it('declines with the chosen code, errors, then approves again from the moment it is set', async () => {
    const { gateway } = await sandbox();
    const { token } = await tokenized(gateway, card('4111111111111111'));
    await gateway.setSavedCardOutcome(SELLER, token, {
      outcome: 'declined',
      failureCode: 'insufficient_funds',
    });
    const declined = await gateway.chargeSavedCard(savedCharge(token));
    expect(declined).toMatchObject({
      outcome: 'declined',
      failureCode: 'insufficient_funds',
      failureReason: 'The card has insufficient funds.',
      gatewayFailureCode: 'sandbox_insufficient_funds',
    });
    expect(await gateway.status(declined.gatewayPayId)).toBe('failed');
    await gateway.setSavedCardOutcome(SELLER, token, { outcome: 'declined', failureCode: 'do_not_honor' });
    expect(await gateway.chargeSavedCard(savedCharge(token))).toMatchObject({
      outcome: 'declined',
      failureCode: 'do_not_honor',
      failureReason: 'The card was declined.',
    });
    await gateway.setSavedCardOutcome(SELLER, token, { outcome: 'error', failureCode: 'processing_error' });
    expect(await gateway.chargeSavedCard(savedCharge(token))).toMatchObject({
      outcome: 'error',
      failureCode: 'processing_error',
    });
    await gateway.setSavedCardOutcome(SELLER, token, { outcome: 'approved' });
    const approved = await gateway.chargeSavedCard(savedCharge(token));
    expect(approved.outcome).toBe('approved');
    expect(await gateway.status(approved.gatewayPayId)).toBe('paid');
  });

  it('still declines an expired card expired_card', async () => {
    const { gateway, clock } = await sandbox();
    const { token } = await tokenized(
      gateway,
      card('4111111111111111', { expiryMonth: 3, expiryYear: 2026 }),
    );
    await gateway.setSavedCardOutcome(SELLER, token, { outcome: 'approved' });
    clock.set('2026-04-01T03:00:00.000Z');
    expect(await gateway.chargeSavedCard(savedCharge(token))).toMatchObject({ failureCode: 'expired_card' });
  });

  it("refuses another seller's or an unknown token as not found, and leaves the card as it was", async () => {
    const { gateway } = await sandbox();
    const { token } = await tokenized(gateway, card('4111111111111111'));
    for (const [tenant, t] of [
      [OTHER, token],
      [{ sellerId: 7, environment: 'live' }, token],
      [SELLER, 'tok_unknown'],
    ] as const) {
      const error = await gateway
        .setSavedCardOutcome(tenant, t, { outcome: 'declined', failureCode: 'card_declined' })
        .catch((e) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe('Saved card not found');
    }
    expect((await gateway.chargeSavedCard(savedCharge(token))).outcome).toBe('approved');
  });
});

describe('Pix Automático', () => {
  it('issues a pending authorization with a consenting pix charge, and none without a consent', async () => {
    const { gateway, table } = await sandbox();
    const first = await gateway.createCharge(consentingPix(12_000));
    expect(first).toMatchObject({
      outcome: 'pending',
      pix: { authorizationId: expect.stringMatching(/^pixauth_[0-9A-Za-z]{24}$/) },
    });
    const authorizationId = (first.outcome === 'pending' && first.pix?.authorizationId) as string;
    expect(await gateway.pixAuthorizationStatus(SELLER, authorizationId)).toBe('pending');
    expect(await table.get(keys.sandboxPixAuthorization(authorizationId))).toMatchObject({
      entity: 'sandbox-pix-authorization',
      status: 'pending',
      sellerId: 7,
      environment: 'test',
      maxAmountCentavos: 12_000,
      firstGatewayPayId: first.gatewayPayId,
    });
    const plain = await gateway.createCharge({ ...consentingPix(), recurringConsent: undefined });
    expect(plain.outcome === 'pending' && plain.pix).not.toHaveProperty('authorizationId');
  });

  it('walks pending -> declined debit -> active on the first payment -> approved debits', async () => {
    const { gateway } = await sandbox();
    const { gatewayPayId, authorizationId } = await authorization(gateway, 10_000);
    const early = await gateway.chargePixAutomatic(debit(authorizationId));
    expect(early).toMatchObject({
      outcome: 'declined',
      failureCode: 'authorization_revoked',
      gatewayFailureCode: 'sandbox_authorization_revoked',
    });
    expect(await gateway.status(early.gatewayPayId)).toBe('failed');

    const notified = receiver.received.length;
    await gateway.simulate(gatewayPayId, 'pay');
    expect(receiver.received.length).toBe(notified + 1);
    expect(await gateway.status(gatewayPayId)).toBe('paid');
    expect(await gateway.pixAuthorizationStatus(SELLER, authorizationId)).toBe('active');

    const renewal = await gateway.chargePixAutomatic(
      debit(authorizationId, { idempotencyKey: 'sub_p_c2_a1' }),
    );
    expect(renewal).toMatchObject({ outcome: 'approved', authorizationCode: expect.any(String) });
    expect(await gateway.charge(renewal.gatewayPayId)).toMatchObject({
      method: 'pix',
      status: 'paid',
      amount: 4_990,
    });
    expect(
      await gateway.chargePixAutomatic(debit(authorizationId, { idempotencyKey: 'sub_p_c2_a1' })),
    ).toEqual(renewal);
    const atLimit = await gateway.chargePixAutomatic(debit(authorizationId, { amountCentavos: 10_000 }));
    expect(atLimit.outcome).toBe('approved');
  });

  it('declines amount_above_limit above the consented maximum', async () => {
    const { gateway } = await sandbox();
    const { authorizationId } = await authorization(gateway, 10_000);
    await gateway.setPixAuthorization(SELLER, authorizationId, 'approve');
    const above = await gateway.chargePixAutomatic(debit(authorizationId, { amountCentavos: 10_001 }));
    expect(above).toMatchObject({
      outcome: 'declined',
      failureCode: 'amount_above_limit',
      failureReason: 'The amount is above the maximum the payer authorized.',
    });
    expect(await gateway.status(above.gatewayPayId)).toBe('failed');
  });

  it('declines authorization_revoked once the payer revoked it; a revoked one cannot be approved', async () => {
    const { gateway } = await sandbox();
    const { authorizationId } = await authorization(gateway);
    expect(await gateway.setPixAuthorization(SELLER, authorizationId, 'approve')).toBe('active');
    expect(await gateway.setPixAuthorization(SELLER, authorizationId, 'approve')).toBe('active');
    expect((await gateway.chargePixAutomatic(debit(authorizationId))).outcome).toBe('approved');
    expect(await gateway.setPixAuthorization(SELLER, authorizationId, 'revoke')).toBe('revoked');
    expect(await gateway.setPixAuthorization(SELLER, authorizationId, 'revoke')).toBe('revoked');
    expect(await gateway.chargePixAutomatic(debit(authorizationId))).toMatchObject({
      outcome: 'declined',
      failureCode: 'authorization_revoked',
      failureReason: 'The payer revoked the Pix Automático authorization.',
    });
    const error = await gateway.setPixAuthorization(SELLER, authorizationId, 'approve').catch((e) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.message).toBe('The Pix authorization is revoked; it cannot become active');
  });

  it('keeps an authorization revoked before its first payment revoked when that pix is paid', async () => {
    const { gateway } = await sandbox();
    const { gatewayPayId, authorizationId } = await authorization(gateway);
    await gateway.setPixAuthorization(SELLER, authorizationId, 'revoke');
    await gateway.simulate(gatewayPayId, 'pay');
    expect(await gateway.status(gatewayPayId)).toBe('paid');
    expect(await gateway.pixAuthorizationStatus(SELLER, authorizationId)).toBe('revoked');
  });

  it("treats another seller's authorization as unknown", async () => {
    const { gateway } = await sandbox();
    const { authorizationId } = await authorization(gateway);
    await gateway.setPixAuthorization(SELLER, authorizationId, 'approve');
    expect(await gateway.pixAuthorizationStatus(OTHER, authorizationId)).toBeNull();
    expect(await gateway.pixAuthorizationStatus(SELLER, 'pixauth_unknown')).toBeNull();
    const charge = await gateway
      .chargePixAutomatic(debit(authorizationId, { tenant: OTHER }))
      .catch((e) => e);
    expect(charge).toBeInstanceOf(NotFoundError);
    expect(charge.message).toBe('Pix authorization not found');
    for (const action of ['approve', 'revoke'] as const) {
      const error = await gateway.setPixAuthorization(OTHER, authorizationId, action).catch((e) => e);
      expect(error).toBeInstanceOf(NotFoundError);
    }
    expect(await gateway.pixAuthorizationStatus(SELLER, authorizationId)).toBe('active');
  });
});
