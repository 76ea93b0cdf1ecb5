import { addDays, saoPauloDate } from '#shared/dates';
import { createCustomer } from '#shared/domain/customers/customers';
import { createCustomerSchema } from '#shared/domain/customers/schemas';
import { cpfCheckDigits } from '#shared/domain/documents';
import { sandbox, testApiKey } from './fixtures';
import { customersWithCards } from './payment-method-recipes';
import type { BenchContext, Recipe } from './recipes';

/**
 * The routes of functions/scheduled-charges and functions/charge-payments, with an sk_test_ key
 * (the sandbox provider). A request that changes a charge gets a charge of its own, created over
 * HTTP in `prepare`; its customers are registered straight through the domain.
 */

const CHARGES = '/api/v1/scheduled-charges';

/** Requests a dashboard token sends within one rate window while `prepare` runs (the limit is 100 a minute). */
const REQUESTS_PER_TOKEN = 90;

/**
 * Set-up requests over HTTP (outside the measurement). The clock stands still while a recipe
 * prepares and a seller's API keys share one limit, so the set-up speaks as the seller's dashboard
 * (`X-Environment: test`) with a token of a user of its own every REQUESTS_PER_TOKEN requests (the
 * dashboard is limited per user); the measured requests use the seller's one sk_test_ key, which
 * stays its only key (one round trip to authenticate). Another status than `expect` fails the set-up.
 */
export function setUpClient(ctx: BenchContext, sellerId: number, key: string) {
  let token = '';
  let sent = 0;
  return {
    /** The key the measured requests use (the bench moves to a new rate window before them). */
    key: () => key,
    async send<T = unknown>(method: string, path: string, body?: unknown, expect = 200): Promise<T> {
      if (sent % REQUESTS_PER_TOKEN === 0) {
        const { issuer, clock } = ctx.runtime;
        token = await issuer.sign(sellerId, {
          now: clock.now(),
          subject: `bench-set-up-${sellerId}-${sent}`,
        });
      }
      sent += 1;
      const res = await fetch(`${ctx.runtime.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'x-environment': 'test',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status !== expect) throw new Error(`bench set-up: ${method} ${path}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}
export type SetUpClient = ReturnType<typeof setUpClient>;

/** A seller with an sk_test_ key, `count` customers and a product that sells by boleto and carnê. */
export async function sellerWithCustomers(ctx: BenchContext, count: number) {
  const { sellerId } = await ctx.newSeller();
  const api = setUpClient(ctx, sellerId, await testApiKey(ctx, sellerId));
  const { deps } = ctx.runtime;
  const customerDeps = { customers: deps.repos.customers, clock: deps.clock, ids: deps.ids };
  const customerIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const base = `3${String(sellerId % 1000).padStart(3, '0')}${String(i).padStart(5, '0')}`;
    const input = createCustomerSchema.parse({
      name: `Bench Payer ${i}`,
      email: `payer${i}@example.com`,
      document: `${base}${cpfCheckDigits(base)}`,
      phone: '11987654321',
      personType: 'fisica',
    });
    customerIds.push((await createCustomer(customerDeps, sandbox(sellerId), input)).customer.id);
  }
  const product = await api.send<{ uuid: string }>(
    'POST',
    '/api/products',
    {
      name: 'Bench carnê',
      image: 'https://cdn.example.com/c.png',
      value: 1000,
      boleto: true,
      carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
    },
    201,
  );
  return { sellerId, api, customerIds, product };
}

export const today = (ctx: BenchContext) => saoPauloDate(ctx.runtime.clock.now());

/** A card the sandbox approves (or, with 4000000000000002, declines), valid for two more years. */
function testCard(ctx: BenchContext, number = '4111111111111111') {
  const [year, month] = today(ctx).split('-').map(Number);
  return { number, holderName: 'MARIA SOUZA', expiryMonth: month, expiryYear: year + 2, cvv: '123' };
}

/** A prepared charge: its id, its first cycle's pay token (`payLinks`), a saved card of its customer. */
interface BenchCharge {
  id: string;
  token?: string;
  card?: number;
}

/** Charges for a recipe's requests, and the set-up client whose key the requests use. */
type Charges = (ctx: BenchContext, count: number) => Promise<{ api: SetUpClient; charges: BenchCharge[] }>;

/**
 * `count` charges over HTTP, the i-th for customerIds[i % length] with `fields(i)` besides the
 * amount. With `payLinks`, each one's detail is read too and the first cycle's pay link token
 * answered beside its id.
 */
async function createCharges(
  api: SetUpClient,
  customerIds: number[],
  count: number,
  fields: (i: number) => Record<string, unknown>,
  payLinks = false,
): Promise<BenchCharge[]> {
  const charges: BenchCharge[] = [];
  for (let i = 0; i < count; i++) {
    const body = { customerId: customerIds[i % customerIds.length], amount: 49.9, ...fields(i) };
    const { id } = await api.send<{ id: string }>('POST', CHARGES, body, 201);
    if (!payLinks) {
      charges.push({ id });
      continue;
    }
    // The create answers the charge; its detail carries the cycles and their pay links.
    const detail = await api.send<{ cycles: { payUrl: string }[] }>('GET', `${CHARGES}/${id}`);
    charges.push({ id, token: detail.cycles[0].payUrl.split('/').pop() as string });
  }
  return charges;
}

/** One-time charges due in `dueInDays` (10: not issued yet; within 5: pix and boleto issued), one per customer. */
const oneTime =
  (methods = ['pix', 'boleto'], options: { payLinks?: boolean; dueInDays?: number } = {}): Charges =>
  async (ctx, count) => {
    const { api, customerIds, product } = await sellerWithCustomers(ctx, count);
    const charges = await createCharges(
      api,
      customerIds,
      count,
      (i) => ({
        productId: product.uuid,
        dueDate: addDays(today(ctx), options.dueInDays ?? 10),
        methods,
        type: 'one_time',
        description: `Bench charge ${i}`,
      }),
      options.payLinks,
    );
    return { api, charges };
  };

const monthly = (ctx: BenchContext, methods: string[], i: number) => ({
  dueDate: addDays(today(ctx), 10),
  methods,
  type: 'recurring',
  recurrence: { interval: 'month' },
  description: `Bench series ${i}`,
});

/** Monthly pix-and-boleto series whose first cycle is due in 10 days, one per customer. */
const recurring: Charges = async (ctx, count) => {
  const { api, customerIds, product } = await sellerWithCustomers(ctx, count);
  const fields = (i: number) => ({ productId: product.uuid, ...monthly(ctx, ['pix', 'boleto'], i) });
  return { api, charges: await createCharges(api, customerIds, count, fields) };
};

/** Buyers with a saved card each (an approved sale with saveCard, through the domain). */
const CARD_BUYERS = 10;

/**
 * Monthly card series due in 10 days with no card yet (pending_tokenization), spread over
 * CARD_BUYERS customers that each saved a card by a purchase; each charge names its customer's card.
 */
const cardSeries: Charges = async (ctx, count) => {
  const { sellerId, key, cards } = await customersWithCards(ctx, CARD_BUYERS);
  const api = setUpClient(ctx, sellerId, key);
  const customerIds = cards.map((c) => c.customerId);
  const charges = await createCharges(api, customerIds, count, (i) => monthly(ctx, ['card'], i));
  return { api, charges: charges.map((c, i) => ({ ...c, card: cards[i % cards.length].id })) };
};

/** The charges of `charges`, each with `action` already taken over HTTP (set-up, not measured). */
const after =
  (charges: Charges, method: string, action: string, body?: (c: BenchCharge) => unknown): Charges =>
  async (ctx, count) => {
    const prepared = await charges(ctx, count);
    for (const c of prepared.charges)
      await prepared.api.send(method, `${CHARGES}/${c.id}${action}`, body?.(c));
    return prepared;
  };

const none = () => undefined;
const cardOf = (c: BenchCharge) => ({ paymentMethodId: c.card });

/** An action on a charge of its own per request, with the seller's key; `base` is the path before the id. */
const chargeAction = (
  method: string,
  action: string,
  body: (ctx: BenchContext, charge: BenchCharge) => unknown,
  charges: Charges = oneTime(),
  base = CHARGES,
): Recipe => ({
  prepare: async (ctx, count) => {
    const { api, charges: prepared } = await charges(ctx, count);
    return (i) => {
      const sent = body(ctx, prepared[i]);
      return {
        method,
        path: `${base}/${prepared[i].id}${action}`,
        token: api.key(),
        ...(sent === undefined ? {} : { body: sent }),
        expect: 200,
      };
    };
  },
});

const postponeBody = (ctx: BenchContext) => ({ newDueDate: addDays(today(ctx), 20) });

/**
 * The customer's view of a pay link, read again by every request: a one-time charge due in 3 days,
 * whose pix and boleto were issued at its creation (the page issues them only when they are missing).
 */
const payLinkRead = (prefix: string): Recipe => ({
  prepare: async (ctx) => {
    const { charges } = await oneTime(['pix', 'boleto', 'card'], { payLinks: true, dueInDays: 3 })(ctx, 1);
    return () => ({ method: 'GET', path: `${prefix}${charges[0].token}`, expect: 200 });
  },
});

export const chargePlanRecipes: Record<string, Recipe> = {
  'GET /api/v1/scheduled-charges/{id}': chargeAction('GET', '', none),
  // Only a charge due today or overdue can be marked paid.
  'POST /api/v1/scheduled-charges/{id}/mark-paid': chargeAction(
    'POST',
    '/mark-paid',
    (ctx) => ({ paymentDate: today(ctx), externalReference: 'bench' }),
    oneTime(['pix', 'boleto'], { dueInDays: 0 }),
  ),
  'POST /api/v1/scheduled-charges/{id}/postpone': chargeAction('POST', '/postpone', postponeBody),
  'POST /api/scheduled-charges/{id}/postpone': chargeAction(
    'POST',
    '/postpone',
    postponeBody,
    oneTime(),
    '/api/scheduled-charges',
  ),
  'POST /api/v1/scheduled-charges/{id}/cancel': chargeAction('POST', '/cancel', () => ({ reason: 'bench' })),
  'PATCH /api/v1/scheduled-charges/{id}': chargeAction('PATCH', '', () => ({ description: 'Bench update' })),
  'POST /api/v1/scheduled-charges/{id}/pause': chargeAction('POST', '/pause', none),
  'POST /api/v1/scheduled-charges/{id}/resume': chargeAction(
    'POST',
    '/resume',
    none,
    after(oneTime(), 'POST', '/pause'),
  ),
  'POST /api/v1/scheduled-charges/{id}/cancel-at-period-end': chargeAction(
    'POST',
    '/cancel-at-period-end',
    none,
    recurring,
  ),
  'DELETE /api/v1/scheduled-charges/{id}/cancel-at-period-end': chargeAction(
    'DELETE',
    '/cancel-at-period-end',
    none,
    after(recurring, 'POST', '/cancel-at-period-end'),
  ),
  /** A card series without a card is given its customer's saved card. */
  'PUT /api/v1/scheduled-charges/{id}/payment-method': chargeAction(
    'PUT',
    '/payment-method',
    (_, c) => cardOf(c),
    cardSeries,
  ),
  /** A card series given its customer's saved card in `prepare` has it cleared. */
  'DELETE /api/v1/scheduled-charges/{id}/payment-method': chargeAction(
    'DELETE',
    '/payment-method',
    none,
    after(cardSeries, 'PUT', '/payment-method', cardOf),
  ),
  /** The first page of a seller's 20 charges (the default limit). */
  'GET /api/v1/scheduled-charges': {
    prepare: async (ctx) => {
      const { api } = await oneTime()(ctx, 20);
      return () => ({ method: 'GET', path: CHARGES, token: api.key(), expect: 200 });
    },
  },
  /** The attempt log of a one-time card charge whose link was paid on the third try (two declines). */
  'GET /api/v1/scheduled-charges/{id}/attempts': {
    prepare: async (ctx) => {
      const { api, charges } = await oneTime(['card'], { payLinks: true })(ctx, 1);
      const [{ id, token }] = charges;
      for (const number of ['4000000000000002', '4000000000000002', '4111111111111111']) {
        const res = await fetch(`${ctx.runtime.baseUrl}/api/public/cobranca/${token}/card`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ card: testCard(ctx, number) }),
        });
        if (res.status !== 201) throw new Error(`bench pay link: ${res.status} ${await res.text()}`);
      }
      return () => ({ method: 'GET', path: `${CHARGES}/${id}/attempts`, token: api.key(), expect: 200 });
    },
  },
  'GET /cobranca/{payToken}': payLinkRead('/cobranca/'),
  'GET /api/public/cobranca/{payToken}': payLinkRead('/api/public/cobranca/'),
  'GET /cobranca/assets/{file}': {
    prepare: async () => () => ({ method: 'GET', path: '/cobranca/assets/charge.js', expect: 200 }),
  },
  /** The customer pays a one-time card charge on its public pay link (a sale of its own). */
  'POST /api/public/cobranca/{payToken}/card': {
    prepare: async (ctx, count) => {
      const { charges } = await oneTime(['card'], { payLinks: true })(ctx, count);
      const card = testCard(ctx);
      return (i) => ({
        method: 'POST',
        path: `/api/public/cobranca/${charges[i].token}/card`,
        body: { card },
        expect: 201,
      });
    },
  },
  'POST /api/v1/scheduled-charges': {
    prepare: async (ctx, count) => {
      const { api, customerIds, product } = await sellerWithCustomers(ctx, count);
      return (i) => ({
        method: 'POST',
        path: CHARGES,
        token: api.key(),
        body: {
          customerId: customerIds[i],
          productId: product.uuid,
          amount: 150.5,
          dueDate: addDays(today(ctx), 10),
          methods: ['pix', 'boleto'],
          type: 'one_time',
          description: `Bench charge ${i}`,
        },
        expect: 201,
      });
    },
  },
};
