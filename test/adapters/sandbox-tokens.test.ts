import { describe, expect, it } from 'vitest';
import { keys } from '#shared/adapters/dynamodb/keys';
import type { Table } from '#shared/adapters/dynamodb/table';
import { SandboxGateway } from '#shared/adapters/sandbox-gateway/sandbox-gateway';
import { UnconfiguredProvider } from '#shared/adapters/sandbox-gateway/unconfigured-provider';
import type { CardInput, ChargeRequest, SavedCardChargeRequest } from '#shared/domain/payments/gateway';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError, ServiceUnavailableError } from '#shared/errors';
import { freshTable } from '../contract/support';
import { FakeClock } from '../support/fakes/clock';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const buyer = { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com' };

const card = (number: string, overrides: Partial<CardInput> = {}): CardInput => ({
  number,
  holderName: 'MARIA SOUZA',
  expiryMonth: 3,
  expiryYear: 2027,
  cvv: '123',
  ...overrides,
});

const cardCharge = (c: CardInput, saveCard = true, tenant = SELLER): ChargeRequest => ({
  tenant,
  transactionId: 1,
  method: 'creditcard',
  amountCentavos: 10_000,
  installments: 1,
  description: 'Curso',
  customer: buyer,
  card: c,
  saveCard,
});

let keyCount = 0;
/** A saved-card charge; each call has a key of its own (a repeated key is the idempotency tests'). */
const tokenCharge = (
  token: string,
  tenant = SELLER,
  idempotencyKey = `key-${++keyCount}`,
): SavedCardChargeRequest => ({
  tenant,
  transactionId: 2,
  amountCentavos: 4_990,
  installments: 1,
  description: 'Assinatura',
  customer: buyer,
  token,
  idempotencyKey,
});

async function sandbox() {
  const table: Table = await freshTable('sandbox-tokens');
  const clock = new FakeClock('2026-03-10T15:00:00.000Z');
  const gateway = new SandboxGateway({
    table,
    clock,
    notificationKey: { key: async () => new Uint8Array(32).fill(1) },
    pdfKey: { key: async () => new Uint8Array(32).fill(2) },
    publicBaseUrl: 'http://127.0.0.1:3000',
  });
  return { table, clock, gateway };
}

async function saved(gateway: SandboxGateway, c: CardInput, tenant = SELLER) {
  const result = await gateway.createCharge(cardCharge(c, true, tenant));
  if (result.outcome !== 'approved' || !result.savedCard)
    throw new Error(`not saved: ${JSON.stringify(result)}`);
  return result.savedCard;
}

describe('sandbox tokenization', () => {
  it('answers a token with brand, last 4 and expiry when an approved charge asks to save the card', async () => {
    const { gateway, table } = await sandbox();
    const result = await gateway.createCharge(cardCharge(card('4111111111111111')));
    expect(result).toMatchObject({
      outcome: 'approved',
      card: { brand: 'visa', last4: '1111' },
      savedCard: {
        token: expect.stringMatching(/^tok_[0-9A-Za-z]{24}$/),
        brand: 'visa',
        last4: '1111',
        expiryMonth: 3,
        expiryYear: 2027,
      },
    });
    const token = result.outcome === 'approved' ? (result.savedCard?.token as string) : '';
    const record = await table.get(keys.sandboxCardToken(token));
    expect(record).toMatchObject({
      entity: 'sandbox-card-token',
      sellerId: 7,
      environment: 'test',
      outcomeClass: { outcome: 'approved' },
    });
    // Never the number or the CVV.
    expect(JSON.stringify(record)).not.toContain('4111111111111111');
    expect(record).not.toHaveProperty('cvv');
    expect(record).not.toHaveProperty('number');
    const charge = await table.get(keys.sandboxCharge(result.gatewayPayId));
    expect(JSON.stringify(charge)).not.toContain('4111111111111111');
  });

  it('saves nothing unless asked, and nothing for a declined card', async () => {
    const { gateway } = await sandbox();
    expect(await gateway.createCharge(cardCharge(card('4111111111111111'), false))).not.toHaveProperty(
      'savedCard',
    );
    const declined = await gateway.createCharge(cardCharge(card('4000000000009995')));
    expect(declined).toMatchObject({ outcome: 'declined', failureCode: 'insufficient_funds' });
    expect(declined).not.toHaveProperty('savedCard');
  });

  it('reads a two-digit expiry year as 20YY', async () => {
    const { gateway } = await sandbox();
    expect(await saved(gateway, card('5555555555554444', { expiryYear: 28 }))).toMatchObject({
      brand: 'mastercard',
      expiryYear: 2028,
    });
  });
});

describe('chargeSavedCard', () => {
  it('approves a saved approving card without the buyer, with a charge the sandbox can refund', async () => {
    const { gateway } = await sandbox();
    const { token } = await saved(gateway, card('4111111111111111'));
    const result = await gateway.chargeSavedCard(tokenCharge(token));
    expect(result).toMatchObject({ outcome: 'approved', card: { brand: 'visa', last4: '1111' } });
    expect(await gateway.status(result.gatewayPayId)).toBe('paid');
    expect((await gateway.charge(result.gatewayPayId))?.amount).toBe(4_990);
    await gateway.refund(result.gatewayPayId, 4_990);
    expect((await gateway.charge(result.gatewayPayId))?.refunded).toBe(4_990);
  });

  it.each([
    ['4000000000000341', 'card_declined'],
    ['4000000000009987', 'insufficient_funds'],
  ])('approves %s with the buyer, then declines its saved card %s', async (number, failureCode) => {
    const { gateway } = await sandbox();
    const { token } = await saved(gateway, card(number));
    const result = await gateway.chargeSavedCard(tokenCharge(token));
    expect(result).toMatchObject({
      outcome: 'declined',
      failureCode,
      gatewayFailureCode: `sandbox_${failureCode}`,
    });
    expect(await gateway.status(result.gatewayPayId)).toBe('failed');
  });

  it('still checks expiry and CVV on the first payment of a later-decline number', async () => {
    const { gateway } = await sandbox();
    expect(await gateway.createCharge(cardCharge(card('4000000000000341', { cvv: '12' })))).toMatchObject({
      outcome: 'declined',
      failureCode: 'incorrect_cvc',
    });
  });

  it('approves through the last day of the expiry month, then declines expired_card', async () => {
    const { gateway, clock } = await sandbox();
    const { token } = await saved(gateway, card('4242424242424242', { expiryMonth: 3, expiryYear: 2026 }));
    clock.set('2026-04-01T02:59:59.000Z'); // still March 31st in Sao Paulo
    expect((await gateway.chargeSavedCard(tokenCharge(token))).outcome).toBe('approved');
    clock.set('2026-04-01T03:00:00.000Z');
    expect(await gateway.chargeSavedCard(tokenCharge(token))).toMatchObject({
      outcome: 'declined',
      failureCode: 'expired_card',
    });
  });

  it("refuses an unknown token and another seller's or environment's token as not found", async () => {
    const { gateway } = await sandbox();
    const { token } = await saved(gateway, card('4111111111111111'));
    for (const [t, tenant] of [
      ['tok_unknown', SELLER],
      [token, { sellerId: 8, environment: 'test' }],
      [token, { sellerId: 7, environment: 'live' }],
    ] as const) {
      const error = await gateway.chargeSavedCard(tokenCharge(t, tenant)).catch((e) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe('Saved card not found');
    }
  });

  it('forgets a detached token; another seller cannot detach it; detaching twice is fine', async () => {
    const { gateway } = await sandbox();
    const { token } = await saved(gateway, card('4111111111111111'));
    await gateway.detachSavedCard({ sellerId: 8, environment: 'test' }, token);
    expect((await gateway.chargeSavedCard(tokenCharge(token))).outcome).toBe('approved');
    await gateway.detachSavedCard(SELLER, token);
    await gateway.detachSavedCard(SELLER, token);
    await expect(gateway.chargeSavedCard(tokenCharge(token))).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('the unconfigured live provider', () => {
  it('refuses to charge or detach a saved card', async () => {
    const live = new UnconfiguredProvider();
    await expect(live.chargeSavedCard()).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(live.detachSavedCard()).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
