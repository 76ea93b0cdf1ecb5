import { EVENT_CATALOG } from '../../../events/catalog.ts';
import type { Api } from './api';
import type { Envelope } from './forward';

/** Every event of the service's catalog, deprecated ones included. */
export const TRIGGERABLE = EVENT_CATALOG.map((e) => e.name);

const CUSTOMER = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};
const card = () => ({
  number: '4111111111111111',
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

async function cardSale(ctx: Ctx) {
  const p = await product(ctx);
  return ctx.api.post('/api/transactions', {
    productId: p.uuid,
    paymentMethod: 'creditcard',
    customer: CUSTOMER,
    card: card(),
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

async function checkoutSession(ctx: Ctx) {
  const p = await product(ctx);
  return ctx.api.post('/api/checkout/sessions', { product_id: p.id });
}

/** A one-time pix charge due in 3 days, or (`recurring`) a monthly pix series of 3 cycles. */
async function scheduledCharge(ctx: Ctx, recurring = false) {
  const found = await ctx.api.get(`/api/v1/customers?search=${CUSTOMER.document.replace(/\D/g, '')}`);
  const customer =
    found.data[0] ?? (await ctx.api.post('/api/v1/customers', { ...CUSTOMER, personType: 'fisica' }));
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
  const found = await ctx.api.get(`/api/v1/customers?search=${CUSTOMER.document.replace(/\D/g, '')}`);
  const customer =
    found.data[0] ?? (await ctx.api.post('/api/v1/customers', { ...CUSTOMER, personType: 'fisica' }));
  return ctx.api.post('/api/v1/installment-plans', {
    productId: p.uuid,
    customerId: customer.id,
    installments: 2,
    firstDueDate: saoPauloDay(5),
  });
}

/** The newest event of a name: the payload a time-driven event of the same object carries. */
async function newest(ctx: Ctx, event: string): Promise<Envelope> {
  const found = (await ctx.api.get(`/api/events?type=${event}&limit=1`)).data[0];
  if (!found) throw new Error(`no ${event} event to take the payload from`);
  return found;
}

/**
 * An event only time brings (a renewal, an expiry, an overdue charge): the object is made for real,
 * then the event is sent through the sandbox's event route with that object's own payload, since
 * the sandbox cannot move time for one seller without a test clock.
 */
const emit = (ctx: Ctx, event: string, data: unknown) =>
  ctx.api.post('/api/test-helpers/events', { event, data });

const withData = async (
  ctx: Ctx,
  make: (ctx: Ctx) => Promise<unknown>,
  from: string,
  event: string,
  change: (data: any) => unknown,
) => {
  await make(ctx);
  return emit(ctx, event, change((await newest(ctx, from)).data));
};

async function savedCardData(ctx: Ctx) {
  const { card: saved } = await customerWithCard(ctx);
  return saved;
}

type Recipe = (ctx: Ctx) => Promise<unknown>;

/**
 * How each catalog event is brought about in the sandbox. `real`: the API calls that emit it;
 * `timed`: the object made for real and the event sent with its payload (docs/decisions.md, "The CLI and the request log").
 */
export const RECIPES: Record<(typeof TRIGGERABLE)[number], { how: 'real' | 'timed'; run: Recipe }> = {
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
    how: 'timed',
    run: (ctx) =>
      withData(ctx, subscription, 'subscription.created', 'subscription.renewed', (d) => ({
        ...d,
        billingCycle: d.billingCycle + 1,
      })),
  },
  'customer.trial_started': { how: 'real', run: (ctx) => subscription(ctx, { trialDays: 7 }) },
  'customer.trial_converted': {
    how: 'timed',
    run: (ctx) =>
      withData(
        ctx,
        (c) => subscription(c, { trialDays: 7 }),
        'customer.trial_started',
        'customer.trial_converted',
        (d) => ({ ...d, status: 'active', trialEndsAt: d.trialEndsAt ?? null }),
      ),
  },
  'customer.trial_lapsed': {
    how: 'timed',
    run: (ctx) =>
      withData(
        ctx,
        (c) => subscription(c, { trialDays: 7 }),
        'customer.trial_started',
        'customer.trial_lapsed',
        (d) => ({ ...d, status: 'failed' }),
      ),
  },
  'payment_method.expiring_soon': {
    how: 'timed',
    run: async (ctx) =>
      emit(ctx, 'payment_method.expiring_soon', {
        ...(await savedCardData(ctx)),
        stage: 30,
        daysUntilExpiry: 30,
      }),
  },
  'payment_method.expired': {
    how: 'timed',
    run: async (ctx) =>
      emit(ctx, 'payment_method.expired', { ...(await savedCardData(ctx)), status: 'expired' }),
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
  ...timedScheduledCharge('scheduled_charge.paid', (d) => ({ seriesId: null, cycleNumber: null, ...d })),
  ...timedScheduledCharge('scheduled_charge.overdue', (d) => d),
  ...timedScheduledCharge('scheduled_charge.cycle_failed', (d) => ({
    ...d,
    failureCode: 'card_declined',
    failureReason: 'Cartão recusado',
    gatewayFailureCode: null,
  })),
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
  ...timedScheduledCharge('scheduled_charge.payment_method_attached', (d) => d),
  ...timedScheduledCharge('scheduled_charge.payment_method_changed', (d) => d),
  ...timedScheduledCharge('scheduled_charge.payment_method_cleared', (d) => d),
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
    how: 'timed',
    run: (ctx) =>
      withData(
        ctx,
        installmentPlan,
        'installment_plan.created',
        'installment_plan.installment_overdue',
        (d) => ({
          ...d,
          number: 1,
        }),
      ),
  },
  'installment_plan.completed': {
    how: 'timed',
    run: (ctx) =>
      withData(ctx, installmentPlan, 'installment_plan.created', 'installment_plan.completed', (d) => ({
        ...d,
        status: 'completed',
      })),
  },
};

async function payFirstInstallment(ctx: Ctx) {
  const plan = await installmentPlan(ctx);
  return ctx.api.post(`/api/test-helpers/transactions/${plan.installmentsDetail[0].transactionId}/pay`);
}

function timedScheduledCharge<const N extends string>(event: N, change: (data: any) => unknown) {
  return {
    [event]: {
      how: 'timed' as const,
      run: (ctx: Ctx) => withData(ctx, (c) => scheduledCharge(c), 'scheduled_charge.created', event, change),
    },
  } as Record<N, { how: 'timed'; run: Recipe }>;
}

/** Runs the recipe of one event; an unknown name is refused with the list of valid ones. */
export async function trigger(api: Api, event: string): Promise<'real' | 'timed'> {
  const recipe = (RECIPES as Record<string, { how: 'real' | 'timed'; run: Recipe }>)[event];
  if (!recipe) throw new UnknownEventError(event);
  await recipe.run({ api });
  return recipe.how;
}

export class UnknownEventError extends Error {
  constructor(event: string) {
    super(`Unknown event "${event}". Valid events:\n${TRIGGERABLE.map((e) => `  ${e}`).join('\n')}`);
  }
}
