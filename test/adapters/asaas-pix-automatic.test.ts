import { describe, expect, it } from 'vitest';
import type { AsaasProvider } from '#shared/adapters/asaas/asaas-provider';
import { ASAAS_AUTHORIZATION_STATUS, pixAuthorizationStatusOf } from '#shared/adapters/asaas/pix-automatic';
import { DEBIT_LEAD_DAYS } from '#shared/adapters/asaas/pix-automatic-debit';
import type { ChargeRequest, PixAutomaticChargeRequest } from '#shared/domain/payments/gateway';
import { ASAAS_AUTHORIZATION_EVENTS } from '#shared/domain/provider-connections/asaas-events';
import { BadRequestError, NotFoundError, ServiceUnavailableError } from '#shared/errors';
import { ADAPTER_BUYER, useAsaasAdapter } from '../support/asaas-adapter';
import { FAKE_PIX_AUTOMATIC_PAYLOAD, type FakeAsaas } from '../support/fake-asaas/server';
import type { MemoryProviderLinks } from '../support/fakes/provider-links';

const API_KEY = '$aact_test_key_pix_automatico_0000000000';
const tenant = { sellerId: 9, environment: 'live' } as const;
const buyer = ADAPTER_BUYER;

let fake: FakeAsaas;
let links: MemoryProviderLinks;
let provider: AsaasProvider;

const consentSale = (over: Partial<ChargeRequest> = {}): ChargeRequest => ({
  tenant,
  transactionId: 1,
  method: 'pix',
  amountCentavos: 4990,
  installments: 1,
  description: 'Clube do Violão',
  customer: buyer,
  expiresAt: '2026-11-23T16:00:00.000Z',
  recurringConsent: {
    maxAmountCentavos: 4990,
    description: 'Clube do Violão - Mensal',
    every: { interval: 'month', count: 1 },
  },
  ...over,
});

const debit = (authorizationId: string, over: Partial<PixAutomaticChargeRequest> = {}) => ({
  tenant,
  transactionId: 2,
  amountCentavos: 4990,
  description: 'Clube do Violão',
  authorizationId,
  idempotencyKey: 'sub_x:2:1:2',
  ...over,
});

async function authorized(): Promise<string> {
  const result = await provider.createCharge(consentSale());
  if (result.outcome !== 'pending' || !result.pix?.authorizationId) throw new Error('no authorization');
  return result.pix.authorizationId;
}

useAsaasAdapter(
  API_KEY,
  'Escola de Música',
  (w) => {
    ({ fake, links, provider } = w);
    fake.refusePixAutomatic(API_KEY, 0);
  },
  { maxAttempts: 1 },
);

describe('Pix Automático on Asaas: the consent charge', () => {
  it('creates the authorization with its immediate QR code, and answers its copia e cola and id', async () => {
    const result = await provider.createCharge(consentSale());
    if (result.outcome !== 'pending') throw new Error(result.outcome);
    const create = fake.requests.find((r) => r.path === '/v3/pix/automatic/authorizations');
    expect(create?.method).toBe('POST');
    expect(create?.headers.access_token).toBe(API_KEY);
    expect(create?.headers['content-type']).toBe('application/json');
    expect(create?.rawBody).toContain('"value":49.90');
    expect(create?.rawBody).toContain('"originalValue":49.90');
    expect(create?.body).toEqual({
      customerId: expect.stringMatching(/^cus_/),
      frequency: 'MONTHLY',
      contractId: String(result.gatewayPayId),
      startDate: '2026-12-23',
      value: 49.9,
      description: 'Clube do Violão - Mensal',
      immediateQrCode: { expirationSeconds: 3600, originalValue: 49.9, description: 'Clube do Violão' },
    });
    // No plain payment: the composite QR is the first charge.
    expect(fake.requests.some((r) => r.path === '/v3/payments')).toBe(false);
    const authorization = fake.authorization(result.pix?.authorizationId as string);
    expect(result.pix).toEqual({
      qrCode: FAKE_PIX_AUTOMATIC_PAYLOAD,
      txid: authorization?.immediateQrCode.conciliationIdentifier,
      expiresAt: '2026-11-23T16:00:00.000Z',
      authorizationId: authorization?.id,
    });
    expect(await links.pixAuthorization(authorization?.id as string)).toMatchObject({
      sellerId: 9,
      gatewayPayId: result.gatewayPayId,
      conciliationId: authorization?.immediateQrCode.conciliationIdentifier,
      maxAmountCentavos: 4990,
      status: 'pending',
    });
  });

  it.each([
    [{ interval: 'week', count: 1 }, 'WEEKLY', '2026-11-30'],
    [{ interval: 'month', count: 3 }, 'QUARTERLY', '2027-02-23'],
    [{ interval: 'month', count: 6 }, 'SEMIANNUALLY', '2027-05-23'],
    [{ interval: 'year', count: 1 }, 'ANNUALLY', '2027-11-23'],
  ] as const)('sends the period %o as %s, starting one period later', async (every, frequency, startDate) => {
    await provider.createCharge(
      consentSale({ recurringConsent: { maxAmountCentavos: 4990, description: 'x', every } }),
    );
    const create = fake.requests.find((r) => r.path === '/v3/pix/automatic/authorizations');
    expect(create?.body).toMatchObject({ frequency, startDate });
  });

  it('refuses a period BCB has no periodicity for with a 400 naming paymentMethod, before any call', async () => {
    const sale = consentSale({
      recurringConsent: { maxAmountCentavos: 4990, description: 'x', every: { interval: 'week', count: 2 } },
    });
    const error = await provider.createCharge(sale).catch((e) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.code).toBe('pix_automatic_interval_unsupported');
    expect(error.message).toMatch(/^paymentMethod: /);
    expect(fake.requests).toEqual([]);
    expect(links.charges.size).toBe(0);
  });

  it.each([
    [403, 'pix_automatic_not_enabled'],
    [400, 'pix_automatic_refused'],
  ])('turns an account refusal (%i) into a 400 %s quoting Asaas, never a plain pix', async (status, code) => {
    fake.refusePixAutomatic(API_KEY, status);
    const error = await provider.createCharge(consentSale()).catch((e) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.code).toBe(code);
    expect(error.message).toContain('O Pix Automático não está habilitado para esta conta.');
    expect(fake.requests.some((r) => r.path === '/v3/payments')).toBe(false);
    expect(links.pixAuthorizations.size).toBe(0);
  });

  it('answers the 503 of an unreachable provider, never a 500', async () => {
    await provider.createCharge(consentSale({ recurringConsent: undefined })); // the customer exists
    fake.failNext({ status: 502 });
    const error = await provider.createCharge(consentSale()).catch((e) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.code).toBe('provider_unavailable');
  });

  it('answers 503 when Asaas answers the authorization without its QR code', async () => {
    await provider.createCharge(consentSale({ recurringConsent: undefined }));
    fake.failNext({ status: 200, body: { id: 'auth-without-qr', status: 'CREATED' } });
    const error = await provider.createCharge(consentSale()).catch((e) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.code).toBe('provider_unavailable');
    expect(links.pixAuthorizations.size).toBe(0);
  });

  it('cancels an unpaid consent charge by deleting its authorization', async () => {
    const result = await provider.createCharge(consentSale());
    fake.requests.length = 0;
    await provider.cancel(result.gatewayPayId);
    const id = (result as { pix: { authorizationId: string } }).pix.authorizationId;
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /v3/pix/automatic/authorizations/${id}`,
    ]);
    expect(await provider.pixAuthorizationStatus(tenant, id)).toBe('revoked');
  });
});

describe('Pix Automático on Asaas: the authorization status', () => {
  it('maps every documented status, and an unknown one to pending (never a false active)', () => {
    expect(ASAAS_AUTHORIZATION_STATUS).toEqual({
      CREATED: 'pending',
      ACTIVE: 'active',
      CANCELLED: 'revoked',
      REFUSED: 'revoked',
      EXPIRED: 'revoked',
    });
    expect(pixAuthorizationStatusOf('SUSPENDED_FOR_REVIEW')).toBe('pending');
    expect(pixAuthorizationStatusOf(undefined)).toBe('pending');
    expect(ASAAS_AUTHORIZATION_EVENTS).toEqual({
      PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED: 'active',
      PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED: 'revoked',
      PIX_AUTOMATIC_RECURRING_AUTHORIZATION_REFUSED: 'revoked',
      PIX_AUTOMATIC_RECURRING_AUTHORIZATION_EXPIRED: 'revoked',
    });
  });

  it('reads it with GET /pix/automatic/authorizations/{id}; another seller or environment gets null', async () => {
    const id = await authorized();
    fake.requests.length = 0;
    expect(await provider.pixAuthorizationStatus(tenant, id)).toBe('pending');
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v3/pix/automatic/authorizations/${id}`,
    ]);
    await fake.payAuthorizationQr(id); // no webhook configured: only the status moves
    expect(await provider.pixAuthorizationStatus(tenant, id)).toBe('active');
    expect((await links.pixAuthorization(id))?.status).toBe('active');
    expect(await provider.pixAuthorizationStatus({ sellerId: 10, environment: 'live' }, id)).toBeNull();
    expect(await provider.pixAuthorizationStatus({ sellerId: 9, environment: 'test' }, id)).toBeNull();
    expect(await provider.pixAuthorizationStatus(tenant, 'unknown-id')).toBeNull();
  });

  it('answers what it last knew when Asaas cannot be reached', async () => {
    const id = await authorized();
    fake.failNext({ status: 503 });
    expect(await provider.pixAuthorizationStatus(tenant, id)).toBe('pending');
  });
});

describe('Pix Automático on Asaas: the renewal debit', () => {
  it('creates a PIX payment on the authorization, due DEBIT_LEAD_DAYS later, and answers pending', async () => {
    const id = await authorized();
    await fake.payAuthorizationQr(id);
    fake.requests.length = 0;
    const result = await provider.chargePixAutomatic(debit(id));
    expect(result).toEqual({ outcome: 'pending', gatewayPayId: expect.any(Number) });
    expect(DEBIT_LEAD_DAYS).toBe(5);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v3/pix/automatic/authorizations/${id}`,
      'POST /v3/payments',
    ]);
    const create = fake.requests[1];
    expect(create.rawBody).toContain('"value":49.90');
    expect(create.body).toEqual({
      customer: fake.authorization(id)?.customerId,
      billingType: 'PIX',
      value: 49.9,
      dueDate: '2026-11-28',
      description: 'Clube do Violão',
      externalReference: String(result.gatewayPayId),
      pixAutomaticAuthorizationId: id,
    });
    const payment = fake.paymentByReference(String(result.gatewayPayId));
    expect((await links.charge(result.gatewayPayId))?.providerPaymentId).toBe(payment?.id);

    // The same key again: the first answer, and no second payment.
    fake.requests.length = 0;
    expect(await provider.chargePixAutomatic(debit(id))).toEqual(result);
    expect(fake.requests).toEqual([]);
  });

  it('declines authorization_revoked on a pending or revoked authorization, without a payment', async () => {
    const id = await authorized();
    const pending = await provider.chargePixAutomatic(debit(id, { idempotencyKey: 'a' }));
    expect(pending).toMatchObject({ outcome: 'declined', failureCode: 'authorization_revoked' });
    await fake.payAuthorizationQr(id);
    await fake.revokeAuthorization(id);
    const revoked = await provider.chargePixAutomatic(debit(id, { idempotencyKey: 'b' }));
    expect(revoked).toMatchObject({
      outcome: 'declined',
      failureCode: 'authorization_revoked',
      gatewayFailureCode: 'asaas_authorization_revoked',
    });
    expect(fake.requests.some((r) => r.method === 'POST' && r.path === '/v3/payments')).toBe(false);
  });

  it('declines amount_above_limit above the authorized value', async () => {
    const id = await authorized();
    await fake.payAuthorizationQr(id);
    expect(await provider.chargePixAutomatic(debit(id, { amountCentavos: 5000 }))).toMatchObject({
      outcome: 'declined',
      failureCode: 'amount_above_limit',
    });
  });

  it('answers errored (not remembered) when Asaas cannot be reached, then debits on the retry', async () => {
    const id = await authorized();
    await fake.payAuthorizationQr(id);
    fake.failNext({ status: 500 });
    expect(await provider.chargePixAutomatic(debit(id))).toMatchObject({
      outcome: 'error',
      gatewayFailureCode: 'server_error',
    });
    fake.failNext({ status: 200, body: { id, status: 'ACTIVE' } }, { status: 504 });
    expect(await provider.chargePixAutomatic(debit(id))).toMatchObject({ outcome: 'error' });
    expect(await provider.chargePixAutomatic(debit(id))).toMatchObject({ outcome: 'pending' });
  });

  it('throws NotFound for another seller’s authorization', async () => {
    const id = await authorized();
    await expect(
      provider.chargePixAutomatic(debit(id, { tenant: { sellerId: 10, environment: 'live' } })),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
