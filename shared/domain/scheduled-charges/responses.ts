import * as z from 'zod';
import { amountDueField, lateChargeTermsFields } from '#shared/domain/payments/late-charge-responses';
import { transactionResponse } from '#shared/domain/transactions/responses';
import type { Assert, Equals } from '#shared/domain/type-assert';
import {
  CHARGE_METHODS,
  CHARGE_STATUSES,
  CHARGE_TYPES,
  CYCLE_STATUSES,
  RECURRENCE_INTERVALS,
  TIMELINE_KINDS,
  type toCycleView,
  type toScheduledChargeView,
} from './charge';
import type { getScheduledCharge, listScheduledCharges, toTimelineView } from './queries';

const iso = () => z.iso.datetime();
const reais = (what: string) => z.number().describe(`${what}, in Reais (decimal, e.g. 49.9)`);
const date = () => z.string().describe('YYYY-MM-DD, America/Sao_Paulo');

const chargeFields = () => ({
  id: z.string().describe('`sch_test_…` or `sch_live_…`'),
  object: z.literal('scheduled_charge'),
  customerId: z.number().int(),
  amount: reais('What the next cycles charge'),
  dueDate: date().describe('The earliest open cycle’s due date (the last cycle’s when none is open)'),
  methods: z.array(z.enum(CHARGE_METHODS)),
  status: z.enum(CHARGE_STATUSES),
  type: z.enum(CHARGE_TYPES),
  description: z.string().nullable(),
  recurrence: z
    .object({
      interval: z.enum(RECURRENCE_INTERVALS),
      intervalCount: z.number().int(),
      endAfterCycles: z.number().int().nullable(),
      endDate: z.string().nullable(),
    })
    .nullable(),
  trialDays: z.number().int(),
  trialEndsOn: z.string().nullable().describe('The trial’s last day'),
  paymentMethod: z
    .object({ id: z.number().int(), cardLast4: z.string(), cardBrand: z.string() })
    .nullable()
    .describe('The saved card later card cycles are charged on'),
  cancelAtPeriodEnd: z.boolean(),
  pausedAt: iso().nullable(),
  canceledAt: iso().nullable(),
  customer: z.object({
    id: z.number().int(),
    uuid: z.string(),
    name: z.string(),
    email: z.string(),
    document: z.string(),
  }),
  product: z.object({ id: z.number().int(), uuid: z.string(), name: z.string() }).nullable(),
  ...lateChargeTermsFields(),
  environment: z.enum(['test', 'live']),
  testClockId: z
    .string()
    .optional()
    .describe("Sandbox only: the test clock it lives on (its customer's); absent in real time"),
  createdAt: iso(),
  updatedAt: iso(),
});

/** Create, postpone, mark-paid and the other actions: the charge (the spec's Scheduled charge table). */
export const scheduledChargeResponse = z.lazy(() =>
  z
    .object(chargeFields())
    .meta({ id: 'ScheduledCharge', description: 'A one-time charge or a recurring series with due dates' }),
);

export const scheduledChargeCycleResponse = z.lazy(() =>
  z
    .object({
      cycleId: z.string().describe('`<chargeId>_c<n>`'),
      cycleNumber: z.number().int(),
      dueDate: date(),
      amount: reais('Frozen when the cycle was created'),
      amountDue: amountDueField(),
      ...lateChargeTermsFields(),
      status: z.enum(CYCLE_STATUSES),
      payUrl: z.string().describe('The public pay link of the cycle'),
      paidAt: iso().nullable(),
      paidBy: z.enum(['transaction', 'manual']).nullable(),
      paymentDate: z.string().nullable(),
      externalReference: z.string().nullable(),
      attemptCount: z.number().int(),
      nextRetryAt: iso().nullable(),
      failureCode: z.string().nullable(),
      failureReason: z.string().nullable(),
      issued: z
        .array(transactionResponse)
        .describe(
          'The pix and boleto issued for this cycle (5 days ahead of its due date, again after a postpone), oldest first; one replaced or no longer needed is `cancel`',
        ),
    })
    .meta({ id: 'ScheduledChargeCycle', description: 'One cycle of a scheduled charge' }),
);

export const scheduledChargeTimelineResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      kind: z.enum(TIMELINE_KINDS),
      cycleNumber: z.number().int().nullable(),
      data: z.record(z.string(), z.unknown()),
      createdAt: iso(),
    })
    .meta({ id: 'ScheduledChargeTimelineEntry', description: 'An event of a charge’s timeline' }),
);

/** GET /{id}: the charge, its cycles, its transactions and its timeline (newest first). */
export const scheduledChargeDetailResponse = z.lazy(() =>
  z
    .object({
      ...chargeFields(),
      cycles: z.array(scheduledChargeCycleResponse),
      transactions: z
        .array(transactionResponse)
        .describe(
          'The payments of every cycle, oldest first: card charges (approved or not) and the issued pix or boleto that was paid. Empty for a charge marked paid (mark-paid creates no transaction); unpaid instruments are under their cycle (`issued`)',
        ),
      timeline: z.array(scheduledChargeTimelineResponse),
    })
    .meta({
      id: 'ScheduledChargeDetail',
      description: 'A scheduled charge with its cycles, transactions and timeline',
    }),
);

export const scheduledChargeListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(scheduledChargeResponse),
      count: z.number().int().describe('Charges on this page'),
      totalCount: z.number().int(),
      totalPages: z.number().int(),
    })
    .meta({ id: 'ScheduledChargeList', description: 'A page of scheduled charges, newest first' }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type _Charge = Assert<
  Equals<z.output<typeof scheduledChargeResponse>, ReturnType<typeof toScheduledChargeView>>
>;
type _Cycle = Assert<Equals<z.output<typeof scheduledChargeCycleResponse>, ReturnType<typeof toCycleView>>>;
type _Timeline = Assert<
  Equals<z.output<typeof scheduledChargeTimelineResponse>, ReturnType<typeof toTimelineView>>
>;
type _List = Assert<Equals<z.output<typeof scheduledChargeListResponse>, Out<typeof listScheduledCharges>>>;
type _Detail = Assert<Equals<z.output<typeof scheduledChargeDetailResponse>, Out<typeof getScheduledCharge>>>;
