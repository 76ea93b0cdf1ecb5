import { productUuid, subscription, subscriptionHistory } from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { subscriptionRoutes } from './routes';

/** Calls of the subscription routes for the API reference (read by the OpenAPI generator and the tests only). */

const price = {
  object: 'subscription_price',
  productId: 1,
  productUuid,
  product: { id: 1, name: 'Curso de Violão' },
  intervalCount: 1,
  trialDays: 0,
  isActive: true,
  environment: 'test',
} as const;
const monthly = {
  ...price,
  id: 1,
  uuid: '5c678613-f380-4331-ae10-e6ba17564699',
  name: 'Mensal',
  unitAmount: 29.9,
  billingInterval: 'month',
  createdAt: '2026-11-28T17:09:31.302Z',
  updatedAt: '2026-11-28T17:09:31.302Z',
} as const;
const yearly = {
  ...price,
  id: 2,
  uuid: 'e2c2bdd9-c598-4df6-ad1e-df7229f897f0',
  name: 'Anual com 7 dias grátis',
  unitAmount: 299,
  billingInterval: 'year',
  trialDays: 7,
  createdAt: '2026-11-28T17:09:31.371Z',
  updatedAt: '2026-11-28T17:09:31.371Z',
} as const;

/** A yearly subscription made by API with her saved card, in its 7-day trial. */
const trial = {
  ...subscription,
  id: 2,
  uuid: 'b3170676-708f-4f96-bef4-de094fd73a73',
  subscriptionPriceId: 2,
  currentPeriodStart: '2026-11-28T17:09:33.368Z',
  currentPeriodEnd: '2026-12-05T17:09:33.368Z',
  billingCycle: 0,
  trialEndsAt: '2026-12-05T17:09:33.368Z',
  lastPaymentAt: null,
  nextPaymentAt: '2026-12-05T17:09:33.368Z',
  checkoutSessionId: null,
  metadata: { turma: '2027-A' },
  createdAt: '2026-11-28T17:09:33.368Z',
  updatedAt: '2026-11-28T17:09:33.368Z',
  subscriptionPrice: {
    id: 2,
    uuid: yearly.uuid,
    name: yearly.name,
    unitAmount: 299,
    billingInterval: 'year',
    intervalCount: 1,
    product: yearly.product,
  },
} as const;

export const examples = defineExamples(subscriptionRoutes, {
  createSubscriptionPrice: [
    {
      name: 'monthly',
      summary: 'R$ 29,90 a month',
      path: { id: '1' },
      body: { name: 'Mensal', unitAmount: 29.9, billingInterval: 'month' },
      responses: { 201: monthly },
    },
    {
      name: 'yearly-trial',
      summary: 'R$ 299,00 a year, the first 7 days free',
      path: { id: '1' },
      body: { name: 'Anual com 7 dias grátis', unitAmount: 299, billingInterval: 'year', trialDays: 7 },
      responses: { 201: yearly },
    },
  ],
  listSubscriptionPrices: {
    path: { id: '1' },
    query: { active: 'true' },
    responses: { 200: { data: [yearly, monthly] } },
  },
  deactivateSubscriptionPrice: {
    path: { id: '1', priceId: '3' },
    responses: {
      200: {
        ...price,
        id: 3,
        uuid: '6ae53c5e-dd6b-4c36-b001-de96b4d7df68',
        name: 'Semanal',
        unitAmount: 9.9,
        billingInterval: 'week',
        isActive: false,
        createdAt: '2026-11-28T17:09:31.381Z',
        updatedAt: '2026-11-28T17:09:31.391Z',
      },
    },
  },
  createSubscription: {
    body: { customerId: 1, priceId: 2, paymentMethodId: 1, metadata: { turma: '2027-A' } },
    responses: { 201: trial },
  },
  listSubscriptions: {
    query: { status: 'active', page: 1, limit: 20 },
    responses: { 200: { data: [subscription], count: 1, totalCount: 1, totalPages: 1 } },
  },
  getSubscription: { path: { id: '1' }, responses: { 200: subscription } },
  listSubscriptionEvents: {
    path: { id: '1' },
    responses: {
      200: [
        {
          id: 8,
          subscriptionId: 1,
          eventType: 'subscription.resumed',
          eventData: { pausedAt: '2026-11-28T17:09:33.597Z', by: 'seller' },
          createdAt: '2026-11-28T17:09:33.624Z',
        },
        {
          id: 7,
          subscriptionId: 1,
          eventType: 'subscription.paused',
          eventData: { pausedAt: '2026-11-28T17:09:33.597Z', by: 'seller' },
          createdAt: '2026-11-28T17:09:33.597Z',
        },
        ...subscriptionHistory,
      ],
    },
  },
  cancelSubscription: [
    {
      name: 'now',
      summary: 'Cancel at once',
      path: { id: '2' },
      body: { atPeriodEnd: false, reason: 'Mudou de plano' },
      responses: {
        200: {
          ...trial,
          status: 'canceled',
          cancelAt: '2026-11-28T17:09:33.648Z',
          cancelledAt: '2026-11-28T17:09:33.648Z',
          cancelReason: 'Mudou de plano',
          nextPaymentAt: null,
          updatedAt: '2026-11-28T17:09:33.648Z',
        },
      },
    },
    {
      name: 'at-period-end',
      summary: 'Keep it until the paid period ends (pending_cancellation)',
      path: { id: '1' },
      body: { atPeriodEnd: true },
      responses: {
        200: {
          ...subscription,
          status: 'pending_cancellation',
          cancelAt: subscription.currentPeriodEnd,
          cancelAtPeriodEnd: true,
          updatedAt: '2026-11-28T17:12:08.410Z',
        },
      },
    },
  ],
  pauseSubscription: {
    path: { id: '1' },
    responses: {
      200: {
        ...subscription,
        pauseCollection: { behavior: 'void', pausedAt: '2026-11-28T17:09:33.597Z' },
        updatedAt: '2026-11-28T17:09:33.597Z',
      },
    },
  },
  resumeSubscription: {
    path: { id: '1' },
    responses: { 200: { ...subscription, updatedAt: '2026-11-28T17:09:33.624Z' } },
  },
  reactivateSubscription: {
    path: { id: '2' },
    responses: { 200: { ...trial, updatedAt: '2026-11-28T17:09:33.672Z' } },
  },
  changeSubscriptionPaymentMethod: {
    path: { id: '1' },
    body: { paymentMethodId: 3 },
    responses: {
      200: {
        ...subscription,
        paymentMethodId: 3,
        paymentMethod: { id: 3, cardBrand: 'mastercard', cardLast4: '4444' },
        updatedAt: '2026-11-28T17:09:33.816Z',
      },
    },
  },
});
