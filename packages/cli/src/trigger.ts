import { EVENT_CATALOG } from '../../../events/catalog.ts';
import type { Api } from './api';

/** Every event of the service's catalog, deprecated ones included. */
export const TRIGGERABLE = EVENT_CATALOG.map((e) => e.name);

const CUSTOMER = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};
/** Sandbox card numbers: approved; another approved; approved now and declined when charged later. */
const APPROVED = '4111111111111111';
const OTHER_APPROVED = '4242424242424242';
const LATER_DECLINED = '4000000000000341';
const card = (number = APPROVED) => ({
  number,
  holderName: 'MARIA SOUZA',
  expiryMonth: 12,
  expiryYear: new Date().getUTCFullYear() + 3,
  cvv: '123',
});

/** A calendar day in Sao Paulo, `days` from today. */
const saoPauloDay = (days: number) =>
  new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

interface Ctx {
  api: Api;
  /** The test clocks the recipe made: deleted once it is done (a seller keeps at most 100). */
  clocks: string[];
}

const product = ({ api }: Ctx, extra: Record<string, unknown> = {}) =>
  api.post('/api/products', {
    name: 'Produto de teste (CLI)',
    image: 'https://example.com/produto.png',
    value: 49.9,
    ...extra,
  });

async function pixSale(ctx: Ctx) {
  const p = await product(ctx);
  return ctx.api.post('/api/transactions', { productId: p.uuid, paymentMethod: 'pix', customer: CUSTOMER });
}

async function paidPixSale(ctx: Ctx) {
  const sale = await pixSale(ctx);
  return ctx.api.post(`/api/test-helpers/transactions/${sale.id}/pay`);
}

/**
 * An approved card sale that saves the card on the buyer's customer (`document` names it); `expiry`
 * (month and four-digit year) instead of the card's default three years ahead.
 */
async function cardSale(
  ctx: Ctx,
  {
    document = CUSTOMER.document,
    number = APPROVED,
    expiry = {},
  }: { document?: string; number?: string; expiry?: { expiryMonth?: number; expiryYear?: number } } = {},
) {
  const p = await product(ctx);
  return ctx.api.post('/api/transactions', {
    productId: p.uuid,
    paymentMethod: 'creditcard',
    customer: { ...CUSTOMER, document },
    card: { ...card(number), ...expiry },
    saveCard: true,
  });
}

/** The buyer as a customer of the seller, with a saved card (made by an approved card sale). */
async function customerWithCard(ctx: Ctx) {
  await cardSale(ctx);
  const found = await ctx.api.get(`/api/v1/customers?search=${CUSTOMER.document.replace(/\D/g, '')}`);
  const customer = found.data[0];
  const cards = await ctx.api.get(`/api/v1/customers/${customer.uuid}/payment-methods`);
  return { customer, card: cards.data[0] };
}

async function subscription(ctx: Ctx, extra: Record<string, unknown> = {}) {
  const p = await product(ctx);
  const price = await ctx.api.post(`/api/products/${p.id}/prices`, {
    name: 'Mensal',
    unitAmount: 29.9,
    billingInterval: 'month',
  });
  const { customer, card: saved } = await customerWithCard(ctx);
  return ctx.api.post('/api/subscriptions', {
    customerId: customer.id,
    priceId: price.id,
    paymentMethodId: saved.id,
    ...extra,
  });
}

const DAY = 86_400_000;

/** A valid CPF no other customer of the seller has: a customer of its own for each test clock. */
function freshCpf() {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

interface Clock {
  id: string;
  frozenTime: string;
}
interface Customer {
  id: number;
  uuid: string;
  document: string;
}

/** A test clock at now (whole seconds) and a new customer on it: what they buy lives in its time. */
async function onClock(ctx: Ctx): Promise<{ clock: Clock; customer: Customer }> {
  const clock = await ctx.api.post('/api/test-helpers/test-clocks', {
    frozenTime: new Date(Math.floor(Date.now() / 1000) * 1000).toISOString(),
    name: 'payment-service trigger',
  });
  ctx.clocks.push(clock.id);
  const customer = await ctx.api.post('/api/v1/customers', {
    ...CUSTOMER,
    document: freshCpf(),
    personType: 'fisica',
    testClockId: clock.id,
  });
  return { clock, customer };
}

/** Moves the clock to `days` after its start; an advance cut short is sent again until it is done. */
async function advance(ctx: Ctx, clock: Clock, days: number) {
  const frozenTime = new Date(Date.parse(clock.frozenTime) + days * DAY).toISOString();
  for (let sent = 1; ; sent++) {
    const moved = await ctx.api.post(`/api/test-helpers/test-clocks/${clock.id}/advance`, { frozenTime });
    if (moved.status === 'ready' && moved.frozenTime === frozenTime) return moved;
    if (sent === 5) throw new Error(`test clock ${clock.id} did not reach ${frozenTime}`);
  }
}

/** A monthly subscription of a customer on a new clock, paid by a card of `number`. */
async function subscriptionOnClock(ctx: Ctx, extra: Record<string, unknown> = {}, number = APPROVED) {
  const { clock, customer } = await onClock(ctx);
  const p = await product(ctx);
  const price = await ctx.api.post(`/api/products/${p.id}/prices`, {
    name: 'Mensal',
    unitAmount: 29.9,
    billingInterval: 'month',
  });
  await cardSale(ctx, { document: customer.document, number });
  const cards = await ctx.api.get(`/api/v1/customers/${customer.uuid}/payment-methods`);
  await ctx.api.post('/api/subscriptions', {
    customerId: customer.id,
    priceId: price.id,
    paymentMethodId: cards.data[0].id,
    ...extra,
  });
  return clock;
}

/**
 * A customer on a new clock who saves a card valid through the month after the clock's (Sao Paulo),
 * so that its warnings (30, 14 and 7 days before it expires) and its expiry are all ahead on the
 * clock; the sandbox takes it, valid now. Answers the clock and how many days after the clock's
 * start the card expires. No subscription on the clock: no period bounds its advance.
 */
async function cardExpiringOnClock(ctx: Ctx) {
  const { clock, customer } = await onClock(ctx);
  const [year, month] = new Date(Date.parse(clock.frozenTime) - 3 * 3_600_000)
    .toISOString()
    .slice(0, 7)
    .split('-')
    .map(Number);
  const expiry = { expiryMonth: (month % 12) + 1, expiryYear: month === 12 ? year + 1 : year };
  await cardSale(ctx, { document: customer.document, expiry });
  const cards = await ctx.api.get(`/api/v1/customers/${customer.uuid}/payment-methods`);
  const expiresIn = (Date.parse(cards.data[0].expiresAt) - Date.parse(clock.frozenTime)) / DAY;
  return { clock, expiresIn };
}

/** A one-time pix charge of a customer on a new clock, due tomorrow. */
async function chargeOnClock(ctx: Ctx) {
  const { clock, customer } = await onClock(ctx);
  const charge = await ctx.api.post('/api/v1/scheduled-charges', {
    customerId: customer.id,
    amount: 120.5,
    dueDate: saoPauloDay(1),
    methods: ['pix'],
    type: 'one_time',
    description: 'Consulta (CLI)',
  });
  return { clock, charge };
}

/**
 * A monthly card series (3 cycles, the first due tomorrow) whose first cycle the customer pays on
 * its pay link with a card of `number`: the series keeps that card (`payment_method_attached`).
 */
async function cardSeries(ctx: Ctx, customer?: Customer, number = APPROVED) {
  const owner = customer ?? (await sellerCustomer(ctx));
  const charge = await ctx.api.post('/api/v1/scheduled-charges', {
    customerId: owner.id,
    amount: 59.9,
    dueDate: saoPauloDay(1),
    methods: ['card'],
    description: 'Assinatura (CLI)',
    type: 'recurring',
    recurrence: { interval: 'month', endAfterCycles: 3 },
  });
  const path = `/api/v1/scheduled-charges/${charge.id}`;
  const { payUrl } = (await ctx.api.get(path)).cycles[0];
  const token = new URL(payUrl, 'http://x').pathname.split('/').pop();
  await ctx.api.post(`/api/public/cobranca/${token}/card`, { card: card(number) });
  return { owner, path };
}

/**
 * A carnê of two boletos (the first due in 3 days, the second 33 days after the start) of a customer
 * on a new clock, its first boleto paid: active, so the clock's advance issues the second 10 days
 * before its due date.
 */
async function activeCarneOnClock(ctx: Ctx) {
  const { clock, customer } = await onClock(ctx);
  const p = await product(ctx, { value: 300, boleto: true, carne: { enabled: true, maxInstallments: 3 } });
  const plan = await ctx.api.post('/api/v1/installment-plans', {
    productId: p.uuid,
    customerId: customer.id,
    installments: 2,
    firstDueDate: saoPauloDay(3),
  });
  await ctx.api.post(`/api/test-helpers/transactions/${plan.installmentsDetail[0].transactionId}/pay`);
  const path = `/api/v1/installment-plans/${plan.uuid}`;
  // The boleto's payment reaches the carnê by its notification: the clock moves once it is active,
  // else the unpaid first boleto would cancel the carnê on the clock when its grace ends.
  for (let read = 1; (await ctx.api.get(path)).status !== 'active'; read++) {
    if (read === 20)
      throw new Error(`the carnê ${plan.uuid} did not become active after its first boleto was paid`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { clock, path };
}

async function checkoutSession(ctx: Ctx) {
  const p = await product(ctx);
  return ctx.api.post('/api/checkout/sessions', { product_id: p.id });
}

/** The buyer as a customer of the seller (made when missing). */
async function sellerCustomer(ctx: Ctx): Promise<Customer> {
  const found = await ctx.api.get(`/api/v1/customers?search=${CUSTOMER.document.replace(/\D/g, '')}`);
  return found.data[0] ?? (await ctx.api.post('/api/v1/customers', { ...CUSTOMER, personType: 'fisica' }));
}

/** A one-time pix charge due in 3 days, or (`recurring`) a monthly pix series of 3 cycles. */
async function scheduledCharge(ctx: Ctx, recurring = false) {
  const customer = await sellerCustomer(ctx);
  return ctx.api.post('/api/v1/scheduled-charges', {
    customerId: customer.id,
    amount: 120.5,
    dueDate: saoPauloDay(3),
    methods: ['pix'],
    description: 'Mensalidade (CLI)',
    ...(recurring
      ? { type: 'recurring', recurrence: { interval: 'month', endAfterCycles: 3 } }
      : { type: 'one_time' }),
  });
}

const seriesPath = async (ctx: Ctx) => `/api/v1/scheduled-charges/${(await scheduledCharge(ctx, true)).id}`;

async function installmentPlan(ctx: Ctx) {
  const p = await product(ctx, { value: 300, boleto: true, carne: { enabled: true, maxInstallments: 3 } });
  const customer = await sellerCustomer(ctx);
  return ctx.api.post('/api/v1/installment-plans', {
    productId: p.uuid,
    customerId: customer.id,
    installments: 2,
    firstDueDate: saoPauloDay(5),
  });
}

type Run = (ctx: Ctx) => Promise<unknown>;
/**
 * How an event is brought about in the sandbox: `real`, the API calls that emit it; `clock`, the
 * objects made on a test clock that is then advanced past the moment that emits it.
 */
export interface Recipe {
  how: 'real' | 'clock';
  run: Run;
}

/** How each catalog event is brought about in the sandbox (docs/decisions.md, "The CLI and the request log"). */
export const RECIPES: Record<(typeof TRIGGERABLE)[number], Recipe> = {
  'product.created': { how: 'real', run: (ctx) => product(ctx) },
  'product.updated': {
    how: 'real',
    run: async (ctx) =>
      ctx.api.patch(`/api/products/${(await product(ctx)).id}`, { name: 'Produto alterado' }),
  },
  'product.deleted': {
    how: 'real',
    run: async (ctx) => ctx.api.delete(`/api/products/${(await product(ctx)).id}`),
  },
  'transaction.created': { how: 'real', run: pixSale },
  'transaction.updated': { how: 'real', run: paidPixSale },
  'transaction.payment.succeeded': { how: 'real', run: paidPixSale },
  'transaction.payment.failed': {
    how: 'real',
    run: async (ctx) => ctx.api.post(`/api/test-helpers/transactions/${(await pixSale(ctx)).id}/fail`),
  },
  'transaction.failed': {
    how: 'real',
    run: async (ctx) => ctx.api.post(`/api/test-helpers/transactions/${(await pixSale(ctx)).id}/fail`),
  },
  'transaction.canceled': {
    how: 'real',
    run: async (ctx) => ctx.api.delete(`/api/v1/charges/${(await pixSale(ctx)).uuid}`),
  },
  'transaction.refunded': {
    how: 'real',
    run: async (ctx) => ctx.api.post(`/api/transactions/${(await paidPixSale(ctx)).id}/refund`, {}),
  },
  'transaction.chargeback': {
    how: 'real',
    run: async (ctx) => ctx.api.post(`/api/test-helpers/transactions/${(await cardSale(ctx)).id}/chargeback`),
  },
  'transaction.chargeback_reversed': {
    how: 'real',
    run: async (ctx) => {
      const sale = await cardSale(ctx);
      await ctx.api.post(`/api/test-helpers/transactions/${sale.id}/chargeback`);
      return ctx.api.post(`/api/test-helpers/transactions/${sale.id}/chargeback-reversal`);
    },
  },
  'checkout.session.completed': {
    how: 'real',
    run: async (ctx) =>
      ctx.api.post(`/api/test-helpers/checkout/sessions/${(await checkoutSession(ctx)).id}/pay`, {
        paymentMethod: 'card',
        card: card(),
        customer: CUSTOMER,
      }),
  },
  'checkout.session.expired': {
    how: 'real',
    run: async (ctx) => ctx.api.post(`/api/checkout/sessions/${(await checkoutSession(ctx)).id}/expire`),
  },
  'subscription.created': { how: 'real', run: (ctx) => subscription(ctx) },
  'subscription.activated': { how: 'real', run: (ctx) => subscription(ctx) },
  'subscription.paused': {
    how: 'real',
    run: async (ctx) => ctx.api.post(`/api/subscriptions/${(await subscription(ctx)).id}/pause`, {}),
  },
  'subscription.cancelled': {
    how: 'real',
    run: async (ctx) => ctx.api.post(`/api/subscriptions/${(await subscription(ctx)).id}/cancel`, {}),
  },
  'subscription.renewed': {
    how: 'clock',
    // Past the end of the first month (28 to 31 days), before the second's.
    run: async (ctx) => advance(ctx, await subscriptionOnClock(ctx), 32),
  },
  'customer.trial_started': { how: 'real', run: (ctx) => subscription(ctx, { trialDays: 7 }) },
  'customer.trial_converted': {
    how: 'clock',
    run: async (ctx) => advance(ctx, await subscriptionOnClock(ctx, { trialDays: 7 }), 8),
  },
  'customer.trial_lapsed': {
    how: 'clock',
    run: async (ctx) => advance(ctx, await subscriptionOnClock(ctx, { trialDays: 7 }, LATER_DECLINED), 8),
  },
  'payment_method.expiring_soon': {
    how: 'clock',
    // An hour into the day of the last warning (7 days before): the warnings due by then are sent.
    run: async (ctx) => {
      const { clock, expiresIn } = await cardExpiringOnClock(ctx);
      return advance(ctx, clock, expiresIn - 7 + 1 / 24);
    },
  },
  'payment_method.expired': {
    how: 'clock',
    run: async (ctx) => {
      const { clock, expiresIn } = await cardExpiringOnClock(ctx);
      return advance(ctx, clock, expiresIn + 1 / 24);
    },
  },
  'scheduled_charge.created': { how: 'real', run: (ctx) => scheduledCharge(ctx) },
  'scheduled_charge.updated': {
    how: 'real',
    run: async (ctx) =>
      ctx.api.patch(`/api/v1/scheduled-charges/${(await scheduledCharge(ctx)).id}`, {
        description: 'Mensalidade alterada (CLI)',
      }),
  },
  'scheduled_charge.canceled': {
    how: 'real',
    run: async (ctx) =>
      ctx.api.post(`/api/v1/scheduled-charges/${(await scheduledCharge(ctx)).id}/cancel`, {}),
  },
  'scheduled_charge.postponed': {
    how: 'real',
    run: async (ctx) =>
      ctx.api.post(`/api/v1/scheduled-charges/${(await scheduledCharge(ctx)).id}/postpone`, {
        newDueDate: saoPauloDay(10),
        reason: 'pediu mais prazo',
      }),
  },
  'scheduled_charge.paid': {
    how: 'clock',
    // The clock moved an hour: the cycle's pix (issued 5 days before its due date) is there to pay.
    run: async (ctx) => {
      const { clock, charge } = await chargeOnClock(ctx);
      await advance(ctx, clock, 1 / 24);
      const issued = (await ctx.api.get(`/api/v1/scheduled-charges/${charge.id}`)).cycles[0].issued;
      return ctx.api.post(`/api/test-helpers/transactions/${issued[0].id}/pay`);
    },
  },
  'scheduled_charge.overdue': {
    how: 'clock',
    run: async (ctx) => {
      const { clock } = await chargeOnClock(ctx);
      return advance(ctx, clock, 3);
    },
  },
  'scheduled_charge.cycle_failed': {
    how: 'clock',
    // Cycle 2 (a month after the first) is charged at its due date and retried 3, 5 and 7 days after
    // each decline: the fourth decline, 46 days after the start at the latest, fails it.
    run: async (ctx) => {
      const { clock, customer } = await onClock(ctx);
      await cardSeries(ctx, customer, LATER_DECLINED);
      return advance(ctx, clock, 50);
    },
  },
  'scheduled_charge.recurrence_canceled': {
    how: 'real',
    run: async (ctx) => ctx.api.post(`${await seriesPath(ctx)}/cancel`, {}),
  },
  'scheduled_charge.cancel_at_period_end_set': {
    how: 'real',
    run: async (ctx) => ctx.api.post(`${await seriesPath(ctx)}/cancel-at-period-end`, {}),
  },
  'scheduled_charge.cancel_at_period_end_cleared': {
    how: 'real',
    run: async (ctx) => {
      const series = await seriesPath(ctx);
      await ctx.api.post(`${series}/cancel-at-period-end`, {});
      return ctx.api.delete(`${series}/cancel-at-period-end`);
    },
  },
  'scheduled_charge.payment_method_attached': { how: 'real', run: (ctx) => cardSeries(ctx) },
  'scheduled_charge.payment_method_changed': {
    how: 'real',
    run: async (ctx) => {
      const { owner, path } = await cardSeries(ctx);
      await cardSale(ctx, { number: OTHER_APPROVED });
      const cards = await ctx.api.get(`/api/v1/customers/${owner.uuid}/payment-methods`);
      return ctx.api.put(`${path}/payment-method`, { paymentMethodId: cards.data[0].id });
    },
  },
  'scheduled_charge.payment_method_cleared': {
    how: 'real',
    run: async (ctx) => ctx.api.delete(`${(await cardSeries(ctx)).path}/payment-method`),
  },
  'installment_plan.created': { how: 'real', run: installmentPlan },
  'installment_plan.installment_issued': { how: 'real', run: installmentPlan },
  'installment_plan.activated': { how: 'real', run: payFirstInstallment },
  'installment_plan.installment_paid': { how: 'real', run: payFirstInstallment },
  'installment_plan.canceled': {
    how: 'real',
    run: async (ctx) =>
      ctx.api.post(`/api/v1/installment-plans/${(await installmentPlan(ctx)).uuid}/cancel`, {}),
  },
  'installment_plan.installment_overdue': {
    how: 'clock',
    // The second boleto is due 33 days after the start: overdue the day after.
    run: async (ctx) => advance(ctx, (await activeCarneOnClock(ctx)).clock, 35),
  },
  'installment_plan.completed': {
    how: 'clock',
    // The second boleto is issued 10 days before its due date (day 33), then paid.
    run: async (ctx) => {
      const { clock, path } = await activeCarneOnClock(ctx);
      await advance(ctx, clock, 25);
      const second = (await ctx.api.get(path)).installmentsDetail[1];
      return ctx.api.post(`/api/test-helpers/transactions/${second.transactionId}/pay`);
    },
  },
};

async function payFirstInstallment(ctx: Ctx) {
  const plan = await installmentPlan(ctx);
  return ctx.api.post(`/api/test-helpers/transactions/${plan.installmentsDetail[0].transactionId}/pay`);
}

/** What `trigger --list` says of an event's recipe. */
export function howMade(event: (typeof TRIGGERABLE)[number]): string {
  return RECIPES[event].how === 'real'
    ? 'API calls'
    : 'API calls, then a test clock advanced past the moment that emits it';
}

/**
 * Runs the recipe of one event; an unknown name is refused with the list of valid ones. The test
 * clocks it made are deleted afterwards, even when it failed: the events are out, and what lived on
 * a clock stays in the sandbox, frozen.
 */
export async function trigger(api: Api, event: string): Promise<Recipe['how']> {
  const recipe = (RECIPES as Record<string, Recipe>)[event];
  if (!recipe) throw new UnknownEventError(event);
  const ctx: Ctx = { api, clocks: [] };
  try {
    await recipe.run(ctx);
  } finally {
    // One left behind (a lost answer) deletes itself 30 days after its creation.
    await Promise.allSettled(ctx.clocks.map((id) => api.delete(`/api/test-helpers/test-clocks/${id}`)));
  }
  return recipe.how;
}

export class UnknownEventError extends Error {
  constructor(event: string) {
    super(`Unknown event "${event}". Valid events:\n${TRIGGERABLE.map((e) => `  ${e}`).join('\n')}`);
  }
}
