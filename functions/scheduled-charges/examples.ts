import { refused } from '#shared/domain/scheduled-charges/actions';
import {
  boletoSale,
  chargeCustomer,
  lessons,
  lessonsDetail,
  pixSale,
  productUuid,
} from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { scheduledChargeRoutes } from './routes';

/** Calls of the scheduled charge routes for the API reference (read by the OpenAPI generator and the tests only). */

/** Maria's one-time tuition, by pix or boleto (issued 5 days before the due date). */
const tuition = {
  id: 'sch_test_0GxSxn7g9DlIzk17pjdsPhZ0',
  object: 'scheduled_charge',
  customerId: 1,
  amount: 120.5,
  dueDate: '2026-11-29',
  methods: ['pix', 'boleto'],
  status: 'scheduled',
  type: 'one_time',
  description: 'Mensalidade das aulas de violão',
  recurrence: null,
  trialDays: 0,
  trialEndsOn: null,
  paymentMethod: null,
  cancelAtPeriodEnd: false,
  pausedAt: null,
  canceledAt: null,
  customer: chargeCustomer,
  product: null,
  fine: { type: 'percentage', value: 2 },
  interest: { percentPerMonth: 1 },
  discounts: [{ until: '2026-11-26', type: 'percentage', value: 5 }],
  environment: 'test',
  createdAt: '2026-11-28T17:09:34.393Z',
  updatedAt: '2026-11-28T17:09:34.498Z',
} as const;
/**
 * The tuition marked paid after its due date: the pix and boleto issued 5 days ahead are cancelled
 * under the cycle, and `transactions` (its payments) stays empty.
 */
const tuitionItem = { id: 0, name: tuition.description, value: 120.5, uuid: '' } as const;
const issuedAs = {
  value: 120.5,
  customer: {
    id: 1,
    name: chargeCustomer.name,
    email: chargeCustomer.email,
    document: chargeCustomer.document,
    phone: '',
  },
  product: tuitionItem,
  status: 'cancel',
  amountDue: null,
  canceledAt: '2026-12-03T17:09:40.775Z',
  updatedAt: '2026-12-03T17:09:40.775Z',
} as const;
const tuitionMarkedPaid = {
  ...tuition,
  status: 'paid',
  updatedAt: '2026-12-03T17:09:40.775Z',
  cycles: [
    {
      cycleId: `${tuition.id}_c1`,
      cycleNumber: 1,
      dueDate: '2026-11-29',
      amount: 120.5,
      amountDue: null,
      fine: { type: 'percentage', value: 2 },
      interest: { percentPerMonth: 1 },
      discounts: [{ until: '2026-11-26', type: 'percentage', value: 5 }],
      status: 'paid',
      payUrl: `http://127.0.0.1:3000/cobranca/cob_2_${tuition.id}_Qb7TnW2kXo9LcVs3EyPa8RdHm4JuFg6Z`,
      paidAt: '2026-12-03T17:09:40.775Z',
      paidBy: 'manual',
      paymentDate: '2026-12-03',
      externalReference: 'TED 4471',
      attemptCount: 1,
      nextRetryAt: null,
      failureCode: null,
      failureReason: null,
      issued: [
        {
          ...pixSale,
          ...issuedAs,
          id: 31,
          uuid: '2f6c1c8e-5b7a-4f0e-9d1a-3c8b6e2a7f10',
          gatewayPayId: 310472895561204,
          valueSeller: 119.31,
          date: '2026-11-28T17:09:34.450Z',
          deadline: '2026-12-29T02:59:59.999Z',
          pix: { ...pixSale.pix, expiresAt: '2026-12-29T02:59:59.999Z' },
          createdAt: '2026-11-28T17:09:34.450Z',
        },
        {
          ...boletoSale,
          ...issuedAs,
          id: 32,
          uuid: '9a0e4d27-61c3-4b8f-a5e2-7d1f0c3b9e64',
          gatewayPayId: 744109358216630,
          valueSeller: 117.01,
          date: '2026-11-28T17:09:34.470Z',
          deadline: '2026-11-29',
          boleto: { ...boletoSale.boleto, dueDate: '2026-11-29' },
          createdAt: '2026-11-28T17:09:34.470Z',
        },
      ],
    },
  ],
  transactions: [],
  timeline: [
    {
      id: 6,
      kind: 'manually_marked_paid',
      cycleNumber: 1,
      data: { paymentDate: '2026-12-03', externalReference: 'TED 4471' },
      createdAt: '2026-12-03T17:09:40.775Z',
    },
    {
      id: 5,
      kind: 'overdue',
      cycleNumber: 1,
      data: { dueDate: '2026-11-29' },
      createdAt: '2026-11-30T03:00:00.011Z',
    },
    {
      id: 4,
      kind: 'due_today',
      cycleNumber: 1,
      data: { dueDate: '2026-11-29' },
      createdAt: '2026-11-29T03:00:00.009Z',
    },
    {
      id: 3,
      kind: 'issued',
      cycleNumber: 1,
      data: { method: 'boleto', transactionId: 32 },
      createdAt: '2026-11-28T17:09:34.470Z',
    },
    {
      id: 2,
      kind: 'issued',
      cycleNumber: 1,
      data: { method: 'pix', transactionId: 31 },
      createdAt: '2026-11-28T17:09:34.450Z',
    },
    {
      id: 1,
      kind: 'created',
      cycleNumber: null,
      data: { amount: 120.5, dueDate: '2026-11-29' },
      createdAt: '2026-11-28T17:09:34.393Z',
    },
  ],
} as const;

const lessonsCreated = {
  ...lessons,
  amount: 49.9,
  dueDate: '2026-11-29',
  status: 'pending_tokenization',
  description: 'Aulas particulares',
  paymentMethod: null,
  updatedAt: '2026-11-28T17:09:34.608Z',
} as const;

export const examples = defineExamples(scheduledChargeRoutes, {
  createScheduledCharge: [
    {
      name: 'one-time',
      summary: 'One tuition payment by pix or boleto, due tomorrow',
      body: {
        customerId: 1,
        amount: 120.5,
        dueDate: '2026-11-29',
        methods: ['pix', 'boleto'],
        type: 'one_time',
        description: 'Mensalidade das aulas de violão',
      },
      responses: { 201: tuition },
    },
    {
      name: 'recurring-card',
      summary: 'Monthly lessons by card, 6 cycles: cycle 1 on its pay link saves the card',
      body: {
        customerId: 1,
        amount: 49.9,
        dueDate: '2026-11-29',
        methods: ['card'],
        type: 'recurring',
        recurrence: { interval: 'month', endAfterCycles: 6 },
        productId: productUuid,
        description: 'Aulas particulares',
      },
      responses: { 201: lessonsCreated },
    },
  ],
  listScheduledCharges: {
    query: { status: 'scheduled', page: 1, limit: 20 },
    responses: { 200: { data: [tuition], count: 1, totalCount: 1, totalPages: 1 } },
  },
  getScheduledCharge: { path: { id: lessons.id }, responses: { 200: { ...lessons, ...lessonsDetail } } },
  markScheduledChargePaid: [
    {
      name: 'overdue',
      summary: 'Paid by bank transfer: paid, no transaction created, its pix and boleto cancelled',
      path: { id: tuition.id },
      body: { paymentDate: '2026-12-03', externalReference: 'TED 4471' },
      responses: { 200: tuitionMarkedPaid },
    },
    {
      name: 'not-due',
      summary: 'Still scheduled (only due_today or overdue charges can be marked paid): 409',
      path: { id: tuition.id },
      body: { paymentDate: '2026-11-28', externalReference: 'TED 4471' },
      errors: { 409: refused('marked paid', 'scheduled') },
    },
  ],
  postponeScheduledCharge: {
    path: { id: tuition.id },
    body: { newDueDate: '2026-12-02', reason: 'Cliente pediu mais prazo' },
    responses: { 200: { ...tuition, dueDate: '2026-12-02', updatedAt: '2026-11-29T17:09:38.655Z' } },
  },
  postponeScheduledChargeUnversioned: {
    path: { id: tuition.id },
    body: { newDueDate: '2026-12-03' },
    responses: { 200: { ...tuition, dueDate: '2026-12-03', updatedAt: '2026-11-29T17:09:38.703Z' } },
  },
  cancelScheduledCharge: {
    path: { id: 'sch_test_wuUAjOUOYyiQqGeMXLzgELAJ' },
    body: { reason: 'Matrícula cancelada' },
    responses: {
      200: {
        ...tuition,
        id: 'sch_test_wuUAjOUOYyiQqGeMXLzgELAJ',
        customerId: 2,
        amount: 80,
        dueDate: '2027-01-09',
        methods: ['pix'],
        status: 'canceled',
        description: 'Taxa de matrícula',
        canceledAt: '2026-12-30T17:09:44.184Z',
        customer: {
          id: 2,
          uuid: '013a3283-c544-4269-84fd-b6013205486e',
          name: 'João Pereira',
          email: 'joao@example.com',
          document: '71460238508',
        },
        createdAt: '2026-12-30T17:09:44.131Z',
        updatedAt: '2026-12-30T17:09:44.184Z',
      },
    },
  },
  setScheduledChargeCancelAtPeriodEnd: {
    path: { id: lessons.id },
    responses: { 200: { ...lessons, cancelAtPeriodEnd: true, updatedAt: '2026-12-30T17:09:43.973Z' } },
  },
  clearScheduledChargeCancelAtPeriodEnd: {
    path: { id: lessons.id },
    responses: { 200: { ...lessons, updatedAt: '2026-12-30T17:09:44.006Z' } },
  },
  pauseScheduledCharge: {
    path: { id: lessons.id },
    responses: {
      200: {
        ...lessons,
        status: 'paused',
        pausedAt: '2026-12-30T17:09:44.087Z',
        updatedAt: '2026-12-30T17:09:44.087Z',
      },
    },
  },
  resumeScheduledCharge: {
    path: { id: lessons.id },
    responses: { 200: { ...lessons, updatedAt: '2026-12-30T17:09:44.106Z' } },
  },
  updateScheduledCharge: {
    path: { id: lessons.id },
    body: { amount: 54.9, description: 'Aulas particulares (2027)' },
    responses: {
      200: {
        ...lessonsCreated,
        amount: 54.9,
        description: 'Aulas particulares (2027)',
        updatedAt: '2026-11-28T17:09:34.847Z',
      },
    },
  },
});
