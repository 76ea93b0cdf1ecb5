import { describe, expect, it } from 'vitest';
import type { AsaasProvider } from '#shared/adapters/asaas/asaas-provider';
import { centavosOf, encodeBody, Reais } from '#shared/adapters/asaas/client';
import { ASAAS_EVENTS, ASAAS_STATUS, cardFailureOf, chargeStatusOf } from '#shared/adapters/asaas/mapping';
import type { ChargeRequest } from '#shared/domain/payments/gateway';
import { parsePixPayload } from '#shared/domain/payments/pix';
import { ADAPTER_BUYER, type AsaasAdapterWorld, useAsaasAdapter } from '../support/asaas-adapter';
import { FAKE_CARDS, FAKE_PIX_PAYLOAD, type FakeAsaas } from '../support/fake-asaas/server';
import type { MemoryProviderLinks } from '../support/fakes/provider-links';

const API_KEY = '$aact_test_key_do_vendedor_000000000000';
const tenant = { sellerId: 7, environment: 'live' } as const;
const buyer = ADAPTER_BUYER;

let fake: FakeAsaas;
let links: MemoryProviderLinks;
let provider: AsaasProvider;
let world: AsaasAdapterWorld;

useAsaasAdapter(API_KEY, 'Padaria da Maria', (w) => {
  world = w;
  ({ fake, links, provider } = w);
});

const sale = (over: Partial<ChargeRequest> = {}): ChargeRequest => ({
  tenant,
  transactionId: 1,
  method: 'pix',
  amountCentavos: 1990,
  installments: 1,
  description: 'Curso de Pão',
  customer: buyer,
  expiresAt: '2026-11-24T15:00:00.000Z',
  ...over,
});
const card = (number: string = FAKE_CARDS.approved) => ({
  number,
  holderName: 'MARIA SILVA',
  expiryMonth: 5,
  expiryYear: 2030,
  cvv: '318',
});

describe('the Asaas adapter: requests', () => {
  it('creates the customer once by document, then a PIX payment and reads its QR code', async () => {
    const result = await provider.createCharge(sale());
    expect(result.outcome).toBe('pending');
    if (result.outcome !== 'pending') return;
    expect(result.pix).toMatchObject({ qrCode: FAKE_PIX_PAYLOAD, expiresAt: '2026-11-24T15:00:00.000Z' });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v3/customers?cpfCnpj=24971563792',
      'POST /v3/customers',
      'POST /v3/payments',
      `GET /v3/payments/${result.pix?.txid}/pixQrCode`,
    ]);
    const [, createCustomer, createPayment] = fake.requests;
    expect(createCustomer.headers.access_token).toBe(API_KEY);
    expect(createCustomer.headers['content-type']).toBe('application/json');
    expect(createCustomer.body).toEqual({
      name: 'Maria Silva',
      cpfCnpj: '24971563792',
      email: 'maria@example.com',
    });
    expect(createPayment.rawBody).toContain('"value":19.90');
    expect(createPayment.body).toEqual({
      customer: expect.stringMatching(/^cus_/),
      billingType: 'PIX',
      dueDate: '2026-11-24',
      description: 'Curso de Pão',
      externalReference: String(result.gatewayPayId),
      value: 19.9,
    });
    expect(fake.requests.every((r) => r.headers.access_token === API_KEY)).toBe(true);

    fake.requests.length = 0;
    await provider.createCharge(sale());
    expect(fake.requests.map((r) => `${r.method} ${r.path.split('/').slice(0, 3).join('/')}`)).toEqual([
      'POST /v3/payments',
      'GET /v3/payments',
    ]);
  });

  it('creates a BOLETO with its due date and answers its linha digitável and PDF', async () => {
    const result = await provider.createCharge(
      sale({ method: 'boleto', dueDate: '2026-11-26', expiresAt: undefined }),
    );
    if (result.outcome !== 'pending') throw new Error(result.outcome);
    const payment = fake.paymentByReference(String(result.gatewayPayId));
    expect(payment).toMatchObject({ billingType: 'BOLETO', dueDate: '2026-11-26', value: 19.9 });
    expect(result.boleto).toEqual({
      barcode: '00191878900000050000000002759288002193297817',
      digitableLine: '00190000090275928800021932978170187890000005000',
      formattedLine: '00190.00009 02759.288000 21932.978170 1 87890000005000',
      dueDate: '2026-11-26',
      pdfUrl: payment?.bankSlipUrl,
      pixQrCode: expect.stringMatching(/^000201010212/),
    });
    // The boleto híbrido: the payment's own pix QR code, read after its line.
    expect(fake.requests.slice(-2).map((r) => r.path)).toEqual([
      `/v3/payments/${payment?.id}/identificationField`,
      `/v3/payments/${payment?.id}/pixQrCode`,
    ]);
    expect(parsePixPayload(result.boleto?.pixQrCode ?? '')).toMatchObject({ amountCentavos: 1990 });
  });

  it('answers a BOLETO without its pix when Asaas refuses the QR code (an account without a pix key)', async () => {
    fake.failOn('GET', /^\/v3\/payments\/[^/]+\/pixQrCode$/, {
      status: 400,
      body: { errors: [{ code: 'invalid_action', description: 'Nenhuma chave Pix cadastrada.' }] },
    });
    const result = await provider.createCharge(
      sale({ method: 'boleto', dueDate: '2026-11-26', expiresAt: undefined }),
    );
    if (result.outcome !== 'pending') throw new Error(result.outcome);
    expect(result.boleto?.digitableLine).toMatch(/^\d{47}$/);
    expect(result.boleto).not.toHaveProperty('pixQrCode');
  });

  it('charges a card with holder info, saves its token when asked, never stores the number', async () => {
    const result = await provider.createCharge(
      sale({ method: 'creditcard', card: card(), saveCard: true, installments: 3, amountCentavos: 30000 }),
    );
    expect(result).toMatchObject({
      outcome: 'approved',
      card: { brand: 'mastercard', last4: '8829' },
      savedCard: { brand: 'mastercard', last4: '8829', expiryMonth: 5, expiryYear: 2030 },
    });
    const create = fake.requests.find((r) => r.path === '/v3/payments');
    expect(create?.body).toMatchObject({
      billingType: 'CREDIT_CARD',
      installmentCount: 3,
      totalValue: 300,
      creditCard: {
        holderName: 'MARIA SILVA',
        number: FAKE_CARDS.approved,
        expiryMonth: '05',
        expiryYear: '2030',
        ccv: '318',
      },
      creditCardHolderInfo: { name: 'Maria Silva', email: 'maria@example.com', cpfCnpj: '24971563792' },
    });
    expect(create?.body.value).toBeUndefined();
    expect(JSON.stringify([...links.charges.values()])).not.toContain(FAKE_CARDS.approved);

    if (result.outcome !== 'approved' || !result.savedCard) throw new Error('no saved card');
    fake.requests.length = 0;
    const again = await provider.chargeSavedCard({
      tenant,
      transactionId: 2,
      amountCentavos: 5000,
      installments: 1,
      description: 'Renovação',
      customer: buyer,
      token: result.savedCard.token,
      idempotencyKey: 'renewal-1',
    });
    expect(again.outcome).toBe('approved');
    expect(fake.requests.at(-1)?.body).toMatchObject({ creditCardToken: result.savedCard.token, value: 50 });
    const replay = await provider.chargeSavedCard({
      tenant,
      transactionId: 2,
      amountCentavos: 5000,
      installments: 1,
      description: 'Renovação',
      customer: buyer,
      token: result.savedCard.token,
      idempotencyKey: 'renewal-1',
    });
    expect(replay).toEqual(again);
    expect(fake.requests.filter((r) => r.path === '/v3/payments')).toHaveLength(1);
  });

  it('finds the debit a lost answer hid when its key is retried, and never debits twice', async () => {
    const charged = await provider.createCharge(sale({ method: 'creditcard', card: card(), saveCard: true }));
    if (charged.outcome !== 'approved' || !charged.savedCard) throw new Error('no saved card');
    const renew = () =>
      provider.chargeSavedCard({
        tenant,
        transactionId: 4,
        amountCentavos: 5000,
        installments: 1,
        description: 'Renovação',
        customer: buyer,
        token: (charged.savedCard as { token: string }).token,
        idempotencyKey: 'renewal-lost',
      });
    fake.requests.length = 0;
    // Asaas debits the card and the answer never arrives (the job dies or times out).
    fake.failNext({ status: 200, lose: true });
    await expect(renew()).rejects.toMatchObject({ statusCode: 503, code: 'provider_unavailable' });
    const debits = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v3/payments');
    expect(debits()).toHaveLength(1);

    const retried = await renew();
    expect(retried).toMatchObject({ outcome: 'approved', card: { last4: '8829' } });
    expect(debits()).toHaveLength(1);
    expect(fake.paymentByReference(String(retried.gatewayPayId))).toBeDefined();
    expect(await renew()).toEqual(retried);
  });

  it("sends a saved card's renewals the IP the buyer saved it from, and none when it is unknown", async () => {
    const charged = await provider.createCharge(
      sale({
        method: 'creditcard',
        card: card(),
        saveCard: true,
        customer: { ...buyer, remoteIp: '203.0.113.7' },
      }),
    );
    if (charged.outcome !== 'approved' || !charged.savedCard) throw new Error('no saved card');
    const tokenized = await provider.tokenizeCard({
      tenant,
      customer: { ...buyer, remoteIp: '203.0.113.9' },
      card: card(),
    });
    if (tokenized.outcome !== 'approved') throw new Error('not tokenized');
    const renew = (token: string, key: string) =>
      provider.chargeSavedCard({
        tenant,
        transactionId: 3,
        amountCentavos: 5000,
        installments: 1,
        description: 'Renovação',
        customer: buyer,
        token,
        idempotencyKey: key,
      });
    fake.requests.length = 0;
    await renew(charged.savedCard.token, 'ip-1');
    expect(fake.requests.at(-1)?.body).toMatchObject({
      creditCardToken: charged.savedCard.token,
      remoteIp: '203.0.113.7',
    });
    await renew(tokenized.savedCard.token, 'ip-2');
    expect(fake.requests.at(-1)?.body).toMatchObject({ remoteIp: '203.0.113.9' });
    // The token is never stored in the clear.
    expect(JSON.stringify([...links.cardIps.keys()])).not.toContain(charged.savedCard.token);
    await renew('tok_unknown_to_us', 'ip-3');
    expect(fake.requests.at(-1)?.body.remoteIp).toBeUndefined();
  });

  it('tokenizes a card without charging it', async () => {
    const result = await provider.tokenizeCard({
      tenant,
      customer: {
        ...buyer,
        phone: '11987654321',
        address: { postalCode: '01310100', number: '1000', complement: null },
      },
      card: card(),
    });
    expect(result).toMatchObject({ outcome: 'approved', savedCard: { last4: '8829', brand: 'mastercard' } });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v3/creditCard/tokenizeCreditCard' });
    expect(fake.requests.at(-1)?.body.creditCardHolderInfo).toEqual({
      name: 'Maria Silva',
      email: 'maria@example.com',
      cpfCnpj: '24971563792',
      postalCode: '01310100',
      addressNumber: '1000',
      phone: '11987654321',
    });
    const declined = await provider.tokenizeCard({
      tenant,
      customer: buyer,
      card: card(FAKE_CARDS.declined),
    });
    expect(declined).toMatchObject({
      outcome: 'declined',
      failureCode: 'card_declined',
      gatewayFailureCode: 'invalid_creditCard',
    });
  });

  it("sends the buyer's IP as remoteIp at the body's root when the buyer is at the request", async () => {
    await provider.createCharge(
      sale({ method: 'creditcard', card: card(), customer: { ...buyer, remoteIp: '203.0.113.7' } }),
    );
    const body = fake.requests.find((r) => r.method === 'POST' && r.path === '/v3/payments')?.body;
    expect(body?.remoteIp).toBe('203.0.113.7');
    expect(body?.creditCardHolderInfo).not.toHaveProperty('remoteIp');
    fake.requests.length = 0;
    await provider.tokenizeCard({ tenant, customer: { ...buyer, remoteIp: '203.0.113.8' }, card: card() });
    const tokenize = fake.requests.find((r) => r.path === '/v3/creditCard/tokenizeCreditCard')?.body;
    expect(tokenize?.remoteIp).toBe('203.0.113.8');
  });

  it('sends the holder phone and the address we know, and leaves out what we do not', async () => {
    await provider.createCharge(
      sale({
        method: 'creditcard',
        card: card(),
        customer: {
          ...buyer,
          phone: '11987654321',
          address: { postalCode: '01310100', number: '1000', complement: 'Conjunto 12' },
        },
      }),
    );
    const body = fake.requests.find((r) => r.method === 'POST' && r.path === '/v3/payments')?.body;
    expect(body?.creditCardHolderInfo).toEqual({
      name: 'Maria Silva',
      email: 'maria@example.com',
      cpfCnpj: '24971563792',
      postalCode: '01310100',
      addressNumber: '1000',
      addressComplement: 'Conjunto 12',
      phone: '11987654321',
    });
    expect(JSON.stringify(Object.keys(body ?? {}))).not.toContain('postalCode');
    expect(body?.remoteIp).toBeUndefined();

    fake.requests.length = 0;
    await provider.createCharge(
      sale({ method: 'creditcard', card: card(), customer: { ...buyer, phone: '1133334444' } }),
    );
    expect(fake.requests.find((r) => r.path === '/v3/payments')?.body.creditCardHolderInfo).toEqual({
      name: 'Maria Silva',
      email: 'maria@example.com',
      cpfCnpj: '24971563792',
      phone: '1133334444',
    });
  });

  it("answers Asaas's refusal of a missing holder field as a card decline carrying its code and description", async () => {
    await provider.createCharge(sale()); // the customer is known: the next call is the card payment
    fake.failNext({
      status: 400,
      body: {
        errors: [
          { code: 'invalid_creditCardHolderInfo', description: 'Informe o CEP do titular do cartão.' },
        ],
      },
    });
    const result = await provider.createCharge(sale({ method: 'creditcard', card: card() }));
    expect(result).toMatchObject({
      outcome: 'declined',
      failureCode: 'card_declined',
      failureReason: 'Informe o CEP do titular do cartão.',
      gatewayFailureCode: 'invalid_creditCardHolderInfo',
    });
  });

  it('cancels with DELETE, refunds partially with a value and totally without one, reads the status', async () => {
    const pix = await provider.createCharge(sale());
    await provider.cancel(pix.gatewayPayId);
    const pixId = fake.paymentByReference(String(pix.gatewayPayId))?.id;
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v3/payments/${pixId}` });

    const paid = await provider.createCharge(
      sale({ method: 'creditcard', card: card(), amountCentavos: 10000 }),
    );
    const payId = fake.paymentByReference(String(paid.gatewayPayId))?.id;
    expect(await provider.status(paid.gatewayPayId)).toBe('paid');
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v3/payments/${payId}/status` });
    const partial = await provider.refund(paid.gatewayPayId, 2550);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v3/payments/${payId}/refund` });
    expect(fake.requests.at(-1)?.rawBody).toBe('{"value":25.50}');
    expect(partial.refundId).toMatch(/^ref_/);
    await provider.refund(paid.gatewayPayId, 10000);
    expect(fake.requests.at(-1)?.rawBody).toBe('{}');
    expect(await provider.status(paid.gatewayPayId)).toBe('refunded');
    expect(await provider.status(123)).toBeNull();
  });
});

describe('the Asaas adapter: what a paid boleto cleared', () => {
  it('reads a late boleto paid by its pix: the value with fine and interest, and PIX; null before it is paid and for a card', async () => {
    const result = await provider.createCharge(
      sale({
        method: 'boleto',
        amountCentavos: 34497,
        dueDate: '2026-11-26',
        expiresAt: undefined,
        lateCharges: {
          fine: { type: 'percentage', basisPoints: 200 },
          interest: { basisPointsPerMonth: 100 },
          discounts: [],
        },
      }),
    );
    expect(await provider.paidDetails(result.gatewayPayId)).toBeNull();
    const payment = fake.paymentByReference(String(result.gatewayPayId));
    fake.today = () => '2026-12-06';
    await fake.pay(payment?.id as string, { via: 'PIX' });
    // 344.97 + 2% (6.90) + 344.97 × 1% × 10/30 (1.15)
    expect(await provider.paidDetails(result.gatewayPayId)).toEqual({
      amountCentavos: 35302,
      paidWith: 'pix',
    });
    expect(fake.requests.at(-1)?.path).toBe(`/v3/payments/${payment?.id}`);

    const paidCard = await provider.createCharge(sale({ method: 'creditcard', card: card() }));
    expect(await provider.paidDetails(paidCard.gatewayPayId)).toBeNull();
  });
});

describe('the Asaas adapter: listing a day for the reconciliation', () => {
  it("pages through the day's payments by creation date, mapping references, amounts and statuses", async () => {
    fake.today = () => '2026-11-26';
    fake.addForeignPayment(API_KEY, { value: 1, externalReference: '999' });
    fake.today = () => '2026-11-27';
    for (let i = 0; i < 100; i++)
      fake.addForeignPayment(API_KEY, { value: 10, status: 'PENDING', externalReference: String(1000 + i) });
    const foreign = fake.addForeignPayment(API_KEY, { value: 12.34, status: 'CONFIRMED' });
    const deleted = fake.addForeignPayment(API_KEY, { value: 5, externalReference: '77' });
    deleted.deleted = true;
    fake.requests.length = 0;

    const listed = await provider.listPayments(tenant, '2026-11-27');

    expect(fake.requests.map((r) => `${r.method} ${decodeURIComponent(r.path)}`)).toEqual([
      'GET /v3/payments?dateCreated[ge]=2026-11-27&dateCreated[le]=2026-11-27&offset=0&limit=100',
      'GET /v3/payments?dateCreated[ge]=2026-11-27&dateCreated[le]=2026-11-27&offset=100&limit=100',
    ]);
    expect(fake.requests[0].headers.access_token).toBe(API_KEY);
    expect(listed).toHaveLength(101);
    expect(listed[0]).toEqual({
      providerPaymentId: expect.stringMatching(/^pay_/),
      gatewayPayId: 1000,
      amountCentavos: 1000,
      status: 'pending',
    });
    expect(listed.at(-1)).toEqual({
      providerPaymentId: foreign.id,
      gatewayPayId: null,
      amountCentavos: 1234,
      status: 'paid',
    });
  });

  it('refuses with the 503 of a seller without a connection', async () => {
    world.connected = null;
    await expect(provider.listPayments(tenant, '2026-11-27')).rejects.toMatchObject({
      statusCode: 503,
      code: 'provider_not_configured',
    });
  });
});

describe('the Asaas adapter: failures', () => {
  it('maps card refusals to canonical failure codes, keeping the raw code', async () => {
    const cases: [string, string][] = [
      [FAKE_CARDS.declined, 'card_declined'],
      [FAKE_CARDS.insufficientFunds, 'insufficient_funds'],
      [FAKE_CARDS.expired, 'expired_card'],
    ];
    for (const [number, failureCode] of cases) {
      const result = await provider.createCharge(sale({ method: 'creditcard', card: card(number) }));
      expect(result).toMatchObject({
        outcome: 'declined',
        failureCode,
        gatewayFailureCode: 'invalid_creditCard',
      });
    }
  });

  it("answers a sale's card charge of unknown outcome (a 5xx, a timeout) 503, never declined", async () => {
    await provider.createCharge(sale()); // the customer exists: the next call is the payment
    fake.failNext({ status: 502, body: {} });
    // The sale's attempt stays pending: the reconciler asks Asaas later what it holds.
    await expect(provider.createCharge(sale({ method: 'creditcard', card: card() }))).rejects.toMatchObject({
      statusCode: 503,
      code: 'provider_unavailable',
      message: expect.stringContaining('outcome is not known'),
    });
    const slow = world.build(100);
    fake.failNext({ status: 200, hang: true });
    await expect(slow.createCharge(sale({ method: 'creditcard', card: card() }))).rejects.toMatchObject({
      statusCode: 503,
      code: 'provider_unavailable',
    });
    fake.failNext({ status: 500 });
    await expect(provider.createCharge(sale())).rejects.toMatchObject({
      statusCode: 503,
      code: 'provider_unavailable',
    });
  });

  it('backs off on 429 (RateLimit-Reset when sent, else jittered) and gives up with a 503', async () => {
    await provider.createCharge(sale());
    fake.failNext({ status: 429, headers: { 'ratelimit-reset': '2' } }, { status: 429 });
    const result = await provider.createCharge(sale());
    expect(result.outcome).toBe('pending');
    expect(world.sleeps).toEqual([2000, 400]);
    fake.failNext({ status: 429 }, { status: 429 }, { status: 429 });
    await expect(provider.createCharge(sale({ method: 'creditcard', card: card() }))).rejects.toMatchObject({
      statusCode: 503,
      code: 'provider_unavailable',
      message: expect.stringContaining('nothing was charged'),
    });
  });

  it('refuses with the 503 PROVIDER_NOT_CONFIGURED when the seller has no connection', async () => {
    world.connected = null;
    await expect(provider.createCharge(sale())).rejects.toMatchObject({
      statusCode: 503,
      code: 'provider_not_configured',
    });
    expect(fake.requests).toHaveLength(0);
    expect(await provider.connected(tenant)).toBe(false);
  });

  it('reports a revoked key as provider_credentials_invalid, without the key in the error', async () => {
    world.connected = { apiKey: '$aact_revoked', environment: 'sandbox' };
    const error = await provider.createCharge(sale()).catch((e: Error) => e);
    expect(error).toMatchObject({ statusCode: 503, code: 'provider_credentials_invalid' });
    expect(JSON.stringify(error) + String((error as Error).message)).not.toContain('$aact_revoked');
  });

  it('reports health by reaching the API without credentials', async () => {
    const health = await provider.health();
    expect(health).toMatchObject({ status: 'healthy', provider: 'asaas' });
    expect(fake.requests.at(-1)?.headers.access_token).toBeUndefined();
  });
});

describe('the Asaas mapping', () => {
  it.each(Object.entries(ASAAS_STATUS))('maps status %s to %s', (status, ours) => {
    expect(chargeStatusOf(status)).toBe(ours);
  });
  it('reads an unknown status as pending', () => {
    expect(chargeStatusOf('SOMETHING_NEW')).toBe('pending');
  });
  it('maps the payment events that move a transaction', () => {
    expect(ASAAS_EVENTS).toMatchObject({
      PAYMENT_RECEIVED: 'charge.paid',
      PAYMENT_CONFIRMED: 'charge.paid',
      PAYMENT_OVERDUE: 'charge.failed',
      PAYMENT_DELETED: 'charge.canceled',
      PAYMENT_CHARGEBACK_REQUESTED: 'charge.charged_back',
      PAYMENT_AWAITING_CHARGEBACK_REVERSAL: 'charge.chargeback_reversed',
    });
    expect(ASAAS_EVENTS.PAYMENT_CREATED).toBeUndefined();
    // A won dispute: the payment stands, so its status reads paid (the sale is restored by the event).
    expect(chargeStatusOf('AWAITING_CHARGEBACK_REVERSAL')).toBe('paid');
  });
  it('writes centavos as decimal Reais without float arithmetic, and reads them back', () => {
    expect(encodeBody({ value: new Reais(1), b: new Reais(123456789), c: new Reais(10) })).toBe(
      '{"value":0.01,"b":1234567.89,"c":0.10}',
    );
    expect([centavosOf(19.9), centavosOf(0.07), centavosOf(1234567.89), centavosOf('5')]).toEqual([
      1990, 7, 123456789, 500,
    ]);
  });
  it('falls back to card_declined for an unknown refusal', () => {
    expect(cardFailureOf([{ code: 'invalid_x', description: 'algo' }])).toMatchObject({
      failureCode: 'card_declined',
      gatewayFailureCode: 'invalid_x',
    });
  });
});
