import { buyerFailure } from '#shared/domain/payments/cards';
import { approvedCard, lessons, lessonsDetail } from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { chargePaymentRoutes } from './routes';

/** Calls of the charge payment routes for the API reference (read by the OpenAPI generator and the tests only). */

const cycle1Token = 'cob_2_sch_test_Y5GJaLZvCiARORaE1GRxSQBS_GVaEdLJkyQ4LKvsJQS9uYWLajHSc7ili';
const attempt = {
  paymentMethod: 'card',
  paymentMethodId: 1,
  cardLast4: '1111',
  cardBrand: 'visa',
} as const;

export const examples = defineExamples(chargePaymentRoutes, {
  listScheduledChargeAttempts: {
    path: { id: lessons.id },
    query: { page: 1, limit: 20 },
    responses: {
      200: {
        data: [
          {
            ...attempt,
            id: 3,
            cycleId: `${lessons.id}_c2`,
            cycleNumber: 2,
            attemptNumber: 1,
            attemptedAt: '2026-12-29T03:00:00.034Z',
            source: 'silent_charge',
            status: 'declined',
            failureCode: 'insufficient_funds',
            failureReason: 'The card has insufficient funds.',
            gatewayFailureCode: 'sandbox_insufficient_funds',
            gatewayChargeId: 212541574472337,
            transactionId: 29,
          },
          {
            ...attempt,
            id: 1,
            cycleId: `${lessons.id}_c1`,
            cycleNumber: 1,
            attemptNumber: 1,
            attemptedAt: '2026-11-28T17:09:34.904Z',
            source: 'cycle1_interactive',
            status: 'succeeded',
            failureCode: null,
            failureReason: null,
            gatewayFailureCode: null,
            gatewayChargeId: 488321169687427,
            transactionId: 20,
          },
        ],
        count: 2,
        totalCount: 2,
        totalPages: 1,
      },
    },
  },
  changeScheduledChargePaymentMethod: {
    path: { id: lessons.id },
    body: { paymentMethodId: 3 },
    responses: {
      200: {
        ...lessons,
        paymentMethod: { id: 3, cardBrand: 'mastercard', cardLast4: '4444' },
        updatedAt: '2026-12-30T17:09:44.037Z',
        ...lessonsDetail,
        timeline: [
          {
            id: 9,
            kind: 'payment_method_changed',
            cycleNumber: null,
            data: { from: 1, to: 3, cardBrand: 'mastercard', cardLast4: '4444' },
            createdAt: '2026-12-30T17:09:44.037Z',
          },
          ...lessonsDetail.timeline,
        ],
      },
    },
  },
  clearScheduledChargePaymentMethod: {
    path: { id: lessons.id },
    responses: {
      200: {
        ...lessons,
        paymentMethod: null,
        updatedAt: '2026-12-30T17:09:44.061Z',
        ...lessonsDetail,
        timeline: [
          {
            id: 9,
            kind: 'payment_method_cleared',
            cycleNumber: null,
            data: { paymentMethodId: 1 },
            createdAt: '2026-12-30T17:09:44.061Z',
          },
          ...lessonsDetail.timeline,
        ],
      },
    },
  },
  getChargePage: { path: { payToken: cycle1Token } },
  getChargePageAsset: { path: { file: 'charge.js' } },
  getPayLink: {
    path: { payToken: cycle1Token },
    responses: {
      200: {
        payToken: cycle1Token,
        state: 'open',
        status: 'scheduled',
        environment: 'test',
        type: 'recurring',
        cycleNumber: 1,
        amount: 49.9,
        dueDate: '2026-11-29',
        description: 'Aulas particulares',
        product: { name: 'Curso de Violão' },
        customer: { name: 'Maria Souza' },
        recurrence: { interval: 'month', intervalCount: 1, endAfterCycles: 6, endDate: null },
        methods: ['card'],
        trialEndsOn: null,
        paidAt: null,
        pix: null,
        boleto: null,
        cardMode: 'pay',
        savedCard: null,
        seller: {
          name: 'Escola de Música Lá Maior',
          logoUrl: 'https://cdn.example.com/logo.png',
          brandColor: '#1d4ed8',
        },
      },
    },
  },
  payPayLinkByCard: [
    {
      name: 'paid',
      summary: 'Cycle 1 paid with 4111 1111 1111 1111: the card is saved for the next cycles',
      path: { payToken: cycle1Token },
      body: { card: approvedCard },
      responses: { 201: { status: 'paid', card: { brand: 'visa', last4: '1111' }, failure: null } },
    },
    {
      name: 'declined',
      summary: 'Card 4000 0000 0000 0002: declined, a plain refusal in Portuguese for the customer',
      path: { payToken: cycle1Token },
      body: { card: { ...approvedCard, number: '4000000000000002' } },
      responses: {
        201: {
          status: 'declined',
          card: { brand: 'visa', last4: '0002' },
          failure: buyerFailure('card_declined'),
        },
      },
    },
  ],
});
