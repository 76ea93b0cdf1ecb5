import { addDays, saoPauloDate } from '#shared/dates';
import { issueMagicLink } from '#shared/domain/customer-area/magic-link';
import { IP_LIMIT } from '#shared/domain/customer-area/request';
import { createCustomer } from '#shared/domain/customers/customers';
import { createCustomerSchema } from '#shared/domain/customers/schemas';
import { cpfCheckDigits } from '#shared/domain/documents';
import { connectProvider } from '#shared/domain/provider-connections/connections';
import type { Tenant } from '#shared/domain/tenant';
import type { FakeAsaas } from '../../test/support/fake-asaas/server';
import { createProducts, live, sandbox, testApiKey } from './fixtures';
import type { BenchContext, Recipe } from './recipes';
import { buy, testSeller } from './transaction-recipes';

/**
 * functions/provider-connections (a seller's Asaas account and Asaas's webhooks), the customer
 * area (functions/customer-area and its page), GET /api/v1/products and the chargeback-reversal
 * test helper. Set-up goes straight through the domain (no HTTP, not measured, no rate limit),
 * except the few scheduled charges and the carnê of the customer area, created over HTTP with a
 * seller's sk_test_ key (well under its 100 requests a minute).
 */

// ---------------------------------------------------------------------------------------------
// Asaas. The bench's runtime reaches Asaas at the tests' fake (endpoints.ts starts it and passes its
// URL as the runtime's asaasBaseUrl). The fake keeps nothing in DynamoDB: every round trip counted
// is the service's own.
// ---------------------------------------------------------------------------------------------

/** An API key of the fake's one account (the shape of an Asaas key; it opens nothing real). */
const ASAAS_KEY = '$aact_YmVuY2hfYXNhYXNfYWNjb3VudF9rZXlfMDAwMDAwMDAwMDAwMDAwMDAw';
const connectBody = { apiKey: ASAAS_KEY, environment: 'sandbox' } as const;
const ASAAS_PATH = '/api/provider-connections/asaas';

/** The bench's fake Asaas, with the account of ASAAS_KEY (added again each time: a Map.set). */
function fakeAsaas(ctx: BenchContext): FakeAsaas {
  if (!ctx.asaas)
    throw new Error('bench set-up: the Asaas recipes need the fake Asaas of the endpoints phase');
  ctx.asaas.addAccount(ASAAS_KEY, 'Bench Asaas account');
  return ctx.asaas;
}

/** Connects the seller's Asaas account through the domain (the key checked at the fake). */
async function connectAsaas(ctx: BenchContext, sellerId: number) {
  fakeAsaas(ctx);
  const { deps } = ctx.runtime;
  const connectionDeps = {
    ...deps.deps,
    webhookUrl: `${deps.config.publicBaseUrl}${ASAAS_PATH}/notifications`,
  };
  return connectProvider(connectionDeps, sellerId, connectBody);
}

/** `count` sellers with a connected account (one connection per DELETE). */
async function connectedSellers(ctx: BenchContext, count: number) {
  const out: { sellerId: number; token: string }[] = [];
  for (let i = 0; i < count; i++) {
    const seller = await ctx.newSeller();
    await connectAsaas(ctx, seller.sellerId);
    out.push(seller);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The customer area: customers with CPFs of their own (prefix 6: no other recipe's buyers).
// ---------------------------------------------------------------------------------------------

let nextCustomer = 0;
const CUSTOMER_PREFIX = 6;

function areaCustomer() {
  const n = nextCustomer++;
  const base = `${CUSTOMER_PREFIX}${String(n).padStart(8, '0')}`;
  return {
    name: `Cliente Bench ${n}`,
    email: `cliente${n}@example.com`,
    document: `${base}${cpfCheckDigits(base)}`,
    phone: '11987654321',
    personType: 'fisica',
  };
}

/** Registers the customer with the seller (tenant) straight through the domain; answers its id. */
async function register(ctx: BenchContext, tenant: Tenant, customer: ReturnType<typeof areaCustomer>) {
  const { deps } = ctx.runtime;
  const customerDeps = { customers: deps.repos.customers, clock: deps.clock, ids: deps.ids };
  return (await createCustomer(customerDeps, tenant, createCustomerSchema.parse(customer))).customer.id;
}

/** A set-up POST with a seller's key; fails unless 201. */
async function created(ctx: BenchContext, key: string, path: string, body: unknown) {
  const res = await fetch(`${ctx.runtime.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`bench set-up: POST ${path} answered ${res.status} ${text}`);
  return JSON.parse(text) as { id: number | string; uuid: string };
}

/**
 * A sandbox customer of two sellers, as the customer area shows one: seller A bills it a one-time
 * scheduled charge, seller B one too and a carnê of 3 installments. Answers a magic link of the
 * customer (issued as requestMagicLink issues it; good for 30 minutes) and the sellers' ids.
 */
async function customerOfTwoSellers(ctx: BenchContext) {
  const customer = areaCustomer();
  const dueDate = addDays(saoPauloDate(ctx.runtime.clock.now()), 10);
  const sellerIds: number[] = [];
  for (const carne of [false, true]) {
    const { sellerId } = await ctx.newSeller();
    const key = await testApiKey(ctx, sellerId);
    const customerId = await register(ctx, sandbox(sellerId), customer);
    await created(ctx, key, '/api/v1/scheduled-charges', {
      customerId,
      amount: 120,
      dueDate,
      methods: ['pix', 'boleto'],
      type: 'one_time',
      description: 'Mensalidade',
    });
    if (carne) {
      const product = await created(ctx, key, '/api/products', {
        name: 'Curso em carnê',
        image: 'https://cdn.example.com/c.png',
        value: 1000,
        boleto: true,
        carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
      });
      await created(ctx, key, '/api/v1/installment-plans', {
        productId: product.uuid,
        customerId,
        installments: 3,
        firstDueDate: dueDate,
      });
    }
    sellerIds.push(sellerId);
  }
  const token = await issueMagicLink(
    ctx.runtime.deps.deps,
    { environment: 'test', document: customer.document, email: customer.email.toLowerCase() },
    ctx.runtime.clock.now(),
  );
  return { token, sellerIds };
}

/**
 * Before each request of the magic-link route: once IP_LIMIT.max requests went in the current rate
 * window, the test clock moves to just after the next one starts (as nextRateWindow in endpoints.ts
 * does), as if the customers came in over the minutes. Always the next window: an idle gap of two
 * windows would cost the rate counters one more UpdateItem (rate-counter.ts), which is not the
 * route's own work. A window of 10 requests takes some 8 s of wall clock (REQUEST_FLOOR_MS each).
 */
function spreadOverMinutes(ctx: BenchContext): () => void {
  const { clock } = ctx.runtime;
  const windowMs = IP_LIMIT.windowSeconds * 1000;
  let window = -1;
  let sent = 0;
  return () => {
    let index = Math.floor(clock.now().getTime() / windowMs);
    if (index === window && sent >= IP_LIMIT.max) {
      index += 1;
      clock.setTo(new Date(index * windowMs + 1000));
    }
    if (index !== window) {
      window = index;
      sent = 0;
    }
    sent += 1;
  };
}

export const connectionAreaRecipes: Record<string, Recipe> = {
  // The daily reconciliation's records (one Query for the list, one GetItem for a record).
  'GET /api/reconciliations': {
    prepare: async (ctx) => {
      const { token } = await ctx.newSeller();
      return () => ({ method: 'GET', path: '/api/reconciliations?limit=20', token, expect: 200 });
    },
  },
  'GET /api/reconciliations/{id}': {
    prepare: async (ctx) => {
      const { token } = await ctx.newSeller();
      // A day not reconciled for this seller: the read is the same GetItem, answered 404.
      const path = '/api/reconciliations/rcn_20261127_0000000000000000';
      return () => ({ method: 'GET', path, token, expect: 404 });
    },
  },
  // functions/provider-connections: the dashboard JWT (live account), Asaas played by the fake.
  [`PUT ${ASAAS_PATH}`]: {
    prepare: async (ctx) => {
      // Connecting again replaces the key and the webhook token: one seller does every request.
      fakeAsaas(ctx);
      const { token } = await ctx.newSeller();
      return () => ({ method: 'PUT', path: ASAAS_PATH, token, body: connectBody, expect: 200 });
    },
  },
  [`GET ${ASAAS_PATH}`]: {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      await connectAsaas(ctx, sellerId);
      return () => ({ method: 'GET', path: ASAAS_PATH, token, expect: 200 });
    },
  },
  [`DELETE ${ASAAS_PATH}`]: {
    prepare: async (ctx, count) => {
      const sellers = await connectedSellers(ctx, count);
      return (i) => ({ method: 'DELETE', path: ASAAS_PATH, token: sellers[i].token, expect: 200 });
    },
  },
  [`POST ${ASAAS_PATH}/notifications`]: {
    prepare: async (ctx, count) => {
      // Asaas's PAYMENT_RECEIVED for a fresh pending live pix each time (sold through the fake in
      // prepare): the notification is applied, as the sandbox's charge.paid is.
      const asaas = fakeAsaas(ctx);
      const { sellerId, token } = await ctx.newSeller();
      const { webhook } = await connectAsaas(ctx, sellerId);
      const [product] = await createProducts(ctx, live(sellerId), 1);
      const txs = await buy(ctx, { sellerId, token, key: '', product }, 'pix', count);
      const payments = txs.map((t) => {
        const payment = asaas.paymentByReference(String(t.gatewayPayId));
        if (!payment) throw new Error(`bench set-up: the fake Asaas has no payment of ${t.gatewayPayId}`);
        const { apiKey: _key, ...shown } = payment;
        return { ...shown, status: 'RECEIVED' };
      });
      return (i) => {
        const body = {
          id: `evt_bench_${payments[i].id}_${i}`,
          event: 'PAYMENT_RECEIVED',
          dateCreated: '2026-11-23 10:00:00',
          payment: payments[i],
        };
        const headers = { [webhook.header]: webhook.authToken };
        return { method: 'POST', path: `${ASAAS_PATH}/notifications`, headers, body, expect: 200 };
      };
    },
  },

  'GET /api/v1/products': {
    prepare: async (ctx) => {
      // More products than one page (default limit 20), listed with an sk_test_ key.
      const { sellerId } = await ctx.newSeller();
      const key = await testApiKey(ctx, sellerId);
      await createProducts(ctx, sandbox(sellerId), 25);
      return () => ({ method: 'GET', path: '/api/v1/products', token: key, expect: 200 });
    },
  },

  'POST /api/test-helpers/transactions/{id}/chargeback-reversal': {
    prepare: async (ctx, count) => {
      // Approved cards (paid at once), each charged back in prepare through the sandbox, whose
      // signed notification goes to the webhook route (authenticated by its signature, not counted).
      const seller = await testSeller(ctx);
      const txs = await buy(ctx, seller, 'creditcard', count);
      for (const t of txs) await ctx.runtime.deps.sandbox.simulate(t.gatewayPayId, 'chargeback');
      return (i) => ({
        method: 'POST',
        path: `/api/test-helpers/transactions/${txs[i].id}/chargeback-reversal`,
        token: seller.key,
        body: {},
        expect: 200,
      });
    },
  },

  // The customer area. The hosted page is the same for everyone (the token stays in the fragment).
  'GET /minha-area': {
    prepare: async () => () => ({ method: 'GET', path: '/minha-area', expect: 200 }),
  },
  'POST /api/public/minha-area/request': {
    prepare: async (ctx, count) => {
      // A live customer of its own per request (5 requests per e-mail or document every 10
      // minutes), asked for by CPF and by e-mail in turn; each match issues a link and sends it.
      // Live: its e-mail goes out by SES on AWS, so no table write is missed locally (a sandbox
      // customer's link is kept in the table mailbox on AWS, in memory locally).
      // The route allows 10 requests a minute per client IP, where the runner sends 90 from
      // 127.0.0.1: see spreadOverMinutes. Every answer takes at least REQUEST_FLOOR_MS (800 ms).
      const { sellerId } = await ctx.newSeller();
      const customers = Array.from({ length: count }, () => areaCustomer());
      for (const customer of customers) await register(ctx, live(sellerId), customer);
      const nextRequest = spreadOverMinutes(ctx);
      return (i) => {
        nextRequest();
        const { document, email } = customers[i];
        return {
          method: 'POST',
          path: '/api/public/minha-area/request',
          body: i % 2 === 0 ? { document } : { email },
          expect: 200,
        };
      };
    },
  },
  'GET /api/public/minha-area/charges': {
    prepare: async (ctx) => {
      const { token } = await customerOfTwoSellers(ctx);
      return () => ({ method: 'GET', path: '/api/public/minha-area/charges', token, expect: 200 });
    },
  },
  'PATCH /api/public/minha-area/profile': {
    prepare: async (ctx) => {
      // The customer sets, then clears, the e-mail seller B bills (the one with a carnê).
      const { token, sellerIds } = await customerOfTwoSellers(ctx);
      return (i) => ({
        method: 'PATCH',
        path: '/api/public/minha-area/profile',
        token,
        body: {
          sellerId: sellerIds[1],
          billingEmailOverride: i % 2 === 0 ? `financeiro${i}@example.com` : null,
        },
        expect: 200,
      });
    },
  },
};
