import { addDays } from '#shared/dates';
import { type SetUpClient, sellerWithCustomers, today } from './charge-plan-recipes';
import type { BenchContext, Recipe } from './recipes';

/**
 * The routes of functions/installment-plans, with an sk_test_ key (the sandbox provider registers
 * installment 1's boleto at creation). Each carnê is for a customer of its own (a carnê identical to
 * one just created is refused); a request that changes a carnê gets one of its own, created over
 * HTTP in `prepare`.
 */

const PLANS = '/api/v1/installment-plans';

/** A carnê of 3 installments, the first due in 5 days. */
const planBody = (ctx: BenchContext, productId: string, customerId: number) => ({
  productId,
  customerId,
  installments: 3,
  firstDueDate: addDays(today(ctx), 5),
});

interface BenchPlan {
  uuid: string;
  installmentsDetail: { transactionId: number | null }[];
}

/** `count` carnês over HTTP, one per customer (set-up, not measured). */
async function carnes(ctx: BenchContext, count: number): Promise<{ api: SetUpClient; plans: BenchPlan[] }> {
  const { api, customerIds, product } = await sellerWithCustomers(ctx, count);
  const plans: BenchPlan[] = [];
  for (const customerId of customerIds)
    plans.push(await api.send<BenchPlan>('POST', PLANS, planBody(ctx, product.uuid, customerId), 201));
  return { api, plans };
}

/**
 * A request on a carnê of its own, with the seller's key; `setUp` runs on each carnê first (over
 * HTTP, not measured).
 */
const planAction = (
  method: string,
  action: string,
  body: (ctx: BenchContext) => unknown = () => undefined,
  setUp?: (api: SetUpClient, plan: BenchPlan) => Promise<unknown>,
): Recipe => ({
  prepare: async (ctx, count) => {
    const { api, plans } = await carnes(ctx, count);
    if (setUp) for (const plan of plans) await setUp(api, plan);
    const sent = body(ctx);
    return (i) => ({
      method,
      path: `${PLANS}/${plans[i].uuid}${action}`,
      token: api.key(),
      ...(sent === undefined ? {} : { body: sent }),
      expect: 200,
    });
  },
});

export const installmentPlanRecipes: Record<string, Recipe> = {
  'POST /api/v1/installment-plans': {
    prepare: async (ctx, count) => {
      const { api, customerIds, product } = await sellerWithCustomers(ctx, count);
      return (i) => ({
        method: 'POST',
        path: PLANS,
        token: api.key(),
        body: planBody(ctx, product.uuid, customerIds[i]),
        expect: 201,
      });
    },
  },
  /** The first page of a seller's 20 carnês (the default limit). */
  'GET /api/v1/installment-plans': {
    prepare: async (ctx) => {
      const { api } = await carnes(ctx, 20);
      return () => ({ method: 'GET', path: PLANS, token: api.key(), expect: 200 });
    },
  },
  'GET /api/v1/installment-plans/{uuid}': planAction('GET', ''),
  /**
   * Installment 1, whose boleto the bank cleared without the notification arriving (the sandbox
   * pay helper with notify: false): the provider is asked and the installment paid.
   */
  'POST /api/v1/installment-plans/{uuid}/installments/{number}/mark-paid': planAction(
    'POST',
    '/installments/1/mark-paid',
    undefined,
    (api, plan) =>
      api.send('POST', `/api/test-helpers/transactions/${plan.installmentsDetail[0].transactionId}/pay`, {
        notify: false,
      }),
  ),
  /** A second copy of installment 1's boleto, due in 20 days. */
  'POST /api/v1/installment-plans/{uuid}/installments/{number}/reissue': planAction(
    'POST',
    '/installments/1/reissue',
    (ctx) => ({ dueDate: addDays(today(ctx), 20) }),
  ),
  'POST /api/v1/installment-plans/{uuid}/cancel': planAction('POST', '/cancel'),
  'GET /api/v1/installment-plans/{uuid}/booklet': planAction('GET', '/booklet'),
  'POST /api/v1/installment-plans/{uuid}/booklet-link': planAction('POST', '/booklet-link'),
  'DELETE /api/v1/installment-plans/{uuid}/booklet-link': planAction(
    'DELETE',
    '/booklet-link',
    undefined,
    (api, plan) => api.send('POST', `${PLANS}/${plan.uuid}/booklet-link`, undefined, 200),
  ),
  /** The customer's link, without a key: a carnê shared by its seller. */
  'GET /carne/{token}': {
    prepare: async (ctx, count) => {
      const { api, plans } = await carnes(ctx, count);
      const links: string[] = [];
      for (const plan of plans)
        links.push(
          new URL(
            (await api.send<{ url: string }>('POST', `${PLANS}/${plan.uuid}/booklet-link`, undefined, 200))
              .url,
          ).pathname,
        );
      return (i) => ({ method: 'GET', path: links[i], expect: 200 });
    },
  },
};
