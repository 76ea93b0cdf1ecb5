import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { signatureHeader } from '#events/signing';
import type { Runtime } from '#infra/local/runtime';
import { apiKeyCreatedResponse, apiKeyListResponse, apiKeyResponse } from '#shared/domain/auth/responses';
import { customerListResponse, customerResponse } from '#shared/domain/customers/responses';
import { eventEnvelopeResponse } from '#shared/domain/events/responses';
import { healthResponse } from '#shared/domain/health/responses';
import {
  effectivePortalConfigResponse,
  paymentLinkProductResponse,
  portalConfigDeletedResponse,
  portalConfigOrNullResponse,
  portalConfigResponse,
  productDeactivatedResponse,
  productListResponse,
  productResponse,
} from '#shared/domain/products/responses';
import {
  chargeCanceledResponse,
  chargeListResponse,
  notificationResultResponse,
  transactionCanceledResponse,
  transactionListResponse,
  transactionResponse,
  transactionStatusResponse,
} from '#shared/domain/transactions/responses';
import {
  webhookDeliveryListResponse,
  webhookDeliveryResponse,
  webhookEndpointCreatedResponse,
  webhookEndpointDeletedResponse,
  webhookEndpointListResponse,
  webhookEndpointResponse,
  webhookEndpointRotatedResponse,
} from '#shared/domain/webhooks/responses';
import { card } from '../support/checkout-fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type Call, client, nextRateWindow, startTestRuntime } from '../support/runtime';

/**
 * Every route's success answer, parsed with the response schema the OpenAPI document publishes.
 * The tests run in order and share one seller: later routes act on what earlier ones created.
 */

let runtime: Runtime;
let api: ReturnType<typeof client>;
let receiver: Receiver;

const sellerId = 91_000;
let jwt: string;
let key: string;
/** The dashboard JWT acting on the test environment (the panel-only routes). */
let panel: { token: string; headers: Record<string, string> };

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
  receiver = await new Receiver().start();
  jwt = await runtime.issuer.sign(sellerId, { now: runtime.clock.now() });
  panel = { token: jwt, headers: { 'x-environment': 'test' } };
  const res = await api.post('/api/api-keys', { name: 'main', environment: 'test' }, { token: jwt });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  key = res.body.key;
});
afterAll(async () => {
  await receiver?.stop();
  await runtime?.stop();
});

/**
 * The answer has the status and fits the schema. z.object() drops the keys it does not list, so
 * a parsed copy equal to the answer also proves that the schema names every field the code sends.
 */
function shape<S extends z.ZodType>(res: Call, status: number | number[], schema: S): z.output<S> {
  const expected = Array.isArray(status) ? status : [status];
  expect(expected, `status ${res.status}: ${JSON.stringify(res.body)}`).toContain(res.status);
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) {
    throw new Error(`${z.prettifyError(parsed.error)}\nin ${JSON.stringify(res.body, null, 2)}`);
  }
  expect(parsed.data, 'the answer has fields the schema does not list').toEqual(res.body);
  return parsed.data;
}

const auth = () => ({ token: key });

describe('health', () => {
  it.each(['/api/health', '/api/health/db', '/api/health/cron', '/api/health/gateway'])(
    'GET %s',
    async (path) => {
      shape(await api.get(path), [200, 503], healthResponse);
    },
  );
});

describe('api keys', () => {
  let secondId: string;

  it('POST /api/api-keys', async () => {
    const created = shape(
      await api.post(
        '/api/api-keys',
        { name: 'reader', environment: 'test', permissions: 'read' },
        { token: jwt },
      ),
      201,
      apiKeyCreatedResponse,
    );
    secondId = created.id;
  });

  it('GET /api/api-keys', async () => {
    // The main key has been used by now (lastUsedAt set), the new one not.
    await api.get('/api/products/seller', auth());
    const list = shape(await api.get('/api/api-keys', { token: jwt }), 200, apiKeyListResponse);
    expect(list.data.length).toBeGreaterThanOrEqual(2);
  });

  it('DELETE /api/api-keys/{id}', async () => {
    const revoked = shape(await api.del(`/api/api-keys/${secondId}`, { token: jwt }), 200, apiKeyResponse);
    expect(revoked.revokedAt).not.toBeNull();
  });
});

describe('webhook endpoints and deliveries', () => {
  let endpointId: string;
  let deliveryId: string;

  it('POST /api/webhook-endpoints', async () => {
    const created = shape(
      await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['product.updated'], description: 'shapes' },
        auth(),
      ),
      201,
      webhookEndpointCreatedResponse,
    );
    endpointId = created.id;
  });

  it('GET /api/webhook-endpoints', async () => {
    shape(await api.get('/api/webhook-endpoints', auth()), 200, webhookEndpointListResponse);
  });

  it('GET /api/webhook-endpoints/{id}', async () => {
    shape(await api.get(`/api/webhook-endpoints/${endpointId}`, auth()), 200, webhookEndpointResponse);
  });

  it('PATCH /api/webhook-endpoints/{id}', async () => {
    const res = await api.patch(`/api/webhook-endpoints/${endpointId}`, { description: null }, auth());
    expect(shape(res, 200, webhookEndpointResponse).description).toBeNull();
  });

  it('POST /api/webhook-endpoints/{id}/rotate-secret', async () => {
    const res = await api.post(`/api/webhook-endpoints/${endpointId}/rotate-secret`, undefined, auth());
    expect(shape(res, 200, webhookEndpointRotatedResponse).previousSecretExpiresAt).not.toBeNull();
  });

  it('POST /api/test-helpers/events', async () => {
    shape(
      await api.post('/api/test-helpers/events', { event: 'product.updated' }, auth()),
      201,
      eventEnvelopeResponse,
    );
  });

  it('GET /api/webhook-endpoints/{id}/deliveries', async () => {
    await api.post('/api/test-helpers/clock/advance', { seconds: 2 });
    await waitFor(() => receiver.received.length >= 1);
    let res = await api.get(`/api/webhook-endpoints/${endpointId}/deliveries`, auth());
    for (let i = 0; i < 40 && res.body?.data?.[0]?.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      res = await api.get(`/api/webhook-endpoints/${endpointId}/deliveries`, auth());
    }
    const page = shape(res, 200, webhookDeliveryListResponse);
    expect(page.data.length).toBe(1);
    deliveryId = page.data[0].id;
  });

  it('POST /api/webhook-deliveries/{id}/resend', async () => {
    const res = await api.post(`/api/webhook-deliveries/${deliveryId}/resend`, undefined, auth());
    expect(shape(res, 200, webhookDeliveryResponse).attemptCount).toBe(2);
  });

  it('DELETE /api/webhook-endpoints/{id}', async () => {
    shape(await api.del(`/api/webhook-endpoints/${endpointId}`, auth()), 200, webhookEndpointDeletedResponse);
  });
});

const productBody = {
  name: 'Curso de Violão',
  image: 'https://cdn.example.com/v.png',
  value: 100,
  description: 'Vinte aulas',
  installments: 6,
  carne: { enabled: true, maxInstallments: 6, interestFactors: { '2': 1.0349 } },
};

describe('products and portal configuration', () => {
  let product: z.output<typeof productResponse>;

  it('POST /api/products', async () => {
    product = shape(await api.post('/api/products', productBody, auth()), 201, productResponse);
  });

  it('GET /api/products/seller', async () => {
    shape(await api.get('/api/products/seller', auth()), 200, productListResponse);
  });

  it('GET /api/products', async () => {
    shape(await api.get('/api/products', auth()), 200, productListResponse);
  });

  it('GET /api/products/uuid/{uuid}', async () => {
    shape(await api.get(`/api/products/uuid/${product.uuid}`, auth()), 200, productResponse);
  });

  it('GET /api/products/{id}', async () => {
    shape(await api.get(`/api/products/${product.id}`, auth()), 200, productResponse);
  });

  it('PATCH /api/products/{id}', async () => {
    const res = await api.patch(`/api/products/${product.id}`, { description: null }, auth());
    expect(shape(res, 200, productResponse).description).toBeNull();
  });

  it('DELETE /api/products/{id}', async () => {
    const other = (await api.post('/api/products', productBody, auth())).body;
    const res = await api.del(`/api/products/${other.id}`, auth());
    expect(shape(res, 200, productResponse).isActive).toBe(false);
  });

  it('DELETE /api/v1/products/{uuid}', async () => {
    const other = (await api.post('/api/products', productBody, auth())).body;
    const res = await api.del(`/api/v1/products/${other.uuid}`, auth());
    expect(shape(res, 200, productDeactivatedResponse).isActive).toBe(false);
  });

  it('GET /api/payment-links/{uuid}', async () => {
    shape(await api.get(`/api/payment-links/${product.uuid}`), 200, paymentLinkProductResponse);
  });

  const config = () => `/api/products/${product.id}/portal-config`;

  it('GET /api/products/{id}/portal-config', async () => {
    expect(shape(await api.get(config(), auth()), 200, portalConfigOrNullResponse)).toBeNull();
  });

  it('POST /api/products/{id}/portal-config', async () => {
    const res = await api.post(config(), { primaryColor: '#123456', businessName: null }, auth());
    shape(res, 200, portalConfigResponse);
    expect(shape(await api.get(config(), auth()), 200, portalConfigOrNullResponse)).not.toBeNull();
  });

  it('PATCH /api/products/{id}/portal-config', async () => {
    shape(await api.patch(config(), { requireCancelReason: true }, auth()), 200, portalConfigResponse);
  });

  it('GET /api/products/{id}/portal-config/effective', async () => {
    const res = await api.get(`${config()}/effective`, auth());
    expect(shape(res, 200, effectivePortalConfigResponse).source).toBe('product');
  });

  it('DELETE /api/products/{id}/portal-config', async () => {
    shape(await api.del(config(), auth()), 200, portalConfigDeletedResponse);
  });

  it('GET /api/portal/configuration', async () => {
    expect(
      shape(await api.get('/api/portal/configuration', auth()), 200, portalConfigOrNullResponse),
    ).toBeNull();
  });

  it('PUT /api/portal/configuration', async () => {
    const res = await api.call('PUT', '/api/portal/configuration', {
      ...auth(),
      body: { allowViewInvoices: false },
    });
    expect(shape(res, 200, portalConfigResponse).productId).toBeNull();
    const again = await api.get('/api/portal/configuration', auth());
    expect(shape(again, 200, portalConfigOrNullResponse)).not.toBeNull();
  });
});

const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};

describe('transactions and charges', () => {
  let productUuid: string;
  type View = z.output<typeof transactionResponse>;
  let pix: View;
  let boleto: View;
  let cardTx: View;

  const buy = async (paymentMethod: string, extra: Record<string, unknown> = {}) =>
    api.post('/api/transactions', { productId: productUuid, paymentMethod, customer: buyer, ...extra });
  const pending = async () => shape(await buy('pix'), 201, transactionResponse);

  beforeAll(async () => {
    // Public routes count per client IP: start in a fresh rate window.
    await nextRateWindow(runtime, api);
    productUuid = (await api.post('/api/products', productBody, auth())).body.uuid;
  });

  it('POST /api/transactions (pix)', async () => {
    pix = shape(await buy('pix', { metadata: { order: '42' } }), 201, transactionResponse);
    expect(pix.pix).not.toBeNull();
  });

  it('POST /api/transactions (boleto)', async () => {
    boleto = shape(await buy('boleto'), 201, transactionResponse);
    expect(boleto.boleto).not.toBeNull();
  });

  it('POST /api/transactions (card)', async () => {
    cardTx = shape(
      await buy('creditcard', { card: card('4111111111111111'), installments: 3 }),
      201,
      transactionResponse,
    );
    expect(cardTx).toMatchObject({ status: 'captured', installments: 3 });
  });

  it('GET /api/transactions/{id}', async () => {
    shape(await api.get(`/api/transactions/${boleto.id}`, auth()), 200, transactionResponse);
  });

  it('GET /api/transactions', async () => {
    shape(await api.get('/api/transactions', auth()), 200, transactionListResponse);
  });

  it('GET /api/transactions/status/{gatewayPayId}', async () => {
    const res = await api.get(`/api/transactions/status/${pix.gatewayPayId}`);
    expect(shape(res, 200, transactionStatusResponse)).toBe('pendingPix');
  });

  it('POST /api/test-helpers/transactions/{id}/pay', async () => {
    const res = await api.post(`/api/test-helpers/transactions/${pix.id}/pay`, {}, auth());
    expect(shape(res, 200, transactionResponse).status).toBe('payedPix');
  });

  it('POST /api/transactions/{id}/refund', async () => {
    const res = await api.post(
      `/api/transactions/${pix.id}/refund`,
      { amount: 10, reason: 'partial' },
      auth(),
    );
    expect(shape(res, 200, transactionResponse).refunds).toHaveLength(1);
  });

  it('POST /api/test-helpers/transactions/{id}/fail', async () => {
    const res = await api.post(`/api/test-helpers/transactions/${boleto.id}/fail`, {}, auth());
    expect(shape(res, 200, transactionResponse).status).toBe('denied');
  });

  it('POST /api/test-helpers/transactions/{id}/chargeback', async () => {
    const res = await api.post(`/api/test-helpers/transactions/${cardTx.id}/chargeback`, {}, auth());
    expect(shape(res, 200, transactionResponse)).toMatchObject({
      status: 'reversed',
      chargeback: { status: 'open', closedAt: null },
    });
  });

  it('POST /api/test-helpers/transactions/{id}/chargeback-reversal', async () => {
    const res = await api.post(`/api/test-helpers/transactions/${cardTx.id}/chargeback-reversal`, {}, auth());
    expect(shape(res, 200, transactionResponse)).toMatchObject({
      status: 'captured',
      chargeback: { status: 'won' },
    });
  });

  it('POST /api/transactions/handle-webhook (applied, then not applicable)', async () => {
    const tx = await pending();
    const body = JSON.stringify({
      id: `ntf_shapes_${tx.id}`,
      provider: 'sandbox',
      type: 'charge.paid',
      gatewayPayId: tx.gatewayPayId,
      occurredAt: new Date().toISOString(),
    });
    const post = () =>
      api.call('POST', '/api/transactions/handle-webhook', {
        raw: body,
        headers: {
          'x-signature': signatureHeader(
            [runtime.sandboxNotificationSecret],
            Math.floor(runtime.clock.now().getTime() / 1000),
            body,
          ),
        },
      });
    expect(shape(await post(), 201, notificationResultResponse)).toMatchObject({ applied: true });
    expect(shape(await post(), 201, notificationResultResponse)).toMatchObject({ applied: false });
  });

  it('DELETE /api/transactions/{id} (panel, by gatewayPayId)', async () => {
    const tx = await pending();
    expect(
      shape(await api.del(`/api/transactions/${tx.gatewayPayId}`, panel), 200, transactionCanceledResponse),
    ).toBe(true);
  });

  it('GET /api/v1/charges', async () => {
    const page = shape(await api.get('/api/v1/charges?limit=2', auth()), 200, chargeListResponse);
    expect(page).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    shape(await api.get(`/api/v1/charges?cursor=${page.nextCursor}`, auth()), 200, chargeListResponse);
  });

  it('DELETE /api/v1/charges/{uuid}', async () => {
    const tx = await pending();
    shape(await api.del(`/api/v1/charges/${tx.uuid}`, auth()), 200, chargeCanceledResponse);
  });

  it('GET /api/sandbox/boletos/{gatewayPayId}/pdf (raw PDF)', async () => {
    const pdf = await fetch(boleto.boleto?.pdfUrl as string);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });
});

describe('customers', () => {
  let uuid: string;
  const body = { ...buyer, document: '111.444.777-35', personType: 'fisica', city: 'São Paulo', state: 'SP' };

  it('POST /api/v1/customers (201 created, 200 re-registered)', async () => {
    uuid = shape(await api.post('/api/v1/customers', body, auth()), 201, customerResponse).uuid;
    shape(await api.post('/api/v1/customers', { ...body, name: 'Maria S.' }, auth()), 201, customerResponse);
  });

  it('GET /api/v1/customers', async () => {
    shape(await api.get('/api/v1/customers', auth()), 200, customerListResponse);
  });

  it('PATCH /api/v1/customers/{uuid}', async () => {
    shape(await api.patch(`/api/v1/customers/${uuid}`, { street: 'Rua A' }, auth()), 200, customerResponse);
  });

  it('PATCH /api/v1/customers/{uuid}/billing-email-override', async () => {
    const res = await api.patch(
      `/api/v1/customers/${uuid}/billing-email-override`,
      { billingEmailOverride: 'billing@example.com' },
      auth(),
    );
    expect(shape(res, 200, customerResponse).hasBillingEmailOverride).toBe(true);
  });
});
