import { refused } from '#shared/domain/scheduled-charges/actions';
import { chargeCustomer, lessons, lessonsDetail, productUuid } from '#shared/http/example-story';
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
  environment: 'test',
  createdAt: '2026-11-28T17:09:34.393Z',
  updatedAt: '2026-11-28T17:09:34.498Z',
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
      summary: 'Paid by bank transfer: paid, no transaction created',
      path: { id: tuition.id },
      body: { paymentDate: '2026-12-03', externalReference: 'TED 4471' },
      responses: {
        200: { ...tuition, dueDate: '2026-12-03', status: 'paid', updatedAt: '2026-12-03T17:09:40.775Z' },
      },
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
