import * as z from 'zod';
import { affiliateCommissionResponse } from '#shared/domain/affiliates/index';
import { amountDueField, lateChargeTermsFields } from '#shared/domain/payments/late-charge-responses';
import type { Assert, Equals } from '#shared/domain/type-assert';
import { INSTALLMENT_STATUSES, PLAN_CANCEL_REASONS, PLAN_STATUSES } from './plan';
import type { listInstallmentPlans } from './queries';
import type { toInstallmentView, toPlanView } from './view';

const iso = () => z.iso.datetime();
const reais = (what: string) => z.number().describe(`${what}, in Reais (decimal, e.g. 49.9)`);
const date = () => z.string().describe('YYYY-MM-DD, America/Sao_Paulo');

/** Spec: Installment item. */
export const installmentResponse = z.lazy(() =>
  z
    .object({
      number: z.number().int(),
      amount: reais('The installment’s face value'),
      dueDate: date(),
      amountDue: amountDueField(),
      ...lateChargeTermsFields(),
      status: z.enum(INSTALLMENT_STATUSES),
      boleto: z
        .object({
          barcodeLine: z.string(),
          pdfUrl: z.string(),
          dueDate: date(),
          pixQrCode: z
            .string()
            .nullable()
            .describe(
              'The boleto híbrido: a pix BR Code (copia e cola) for the same installment; paying either settles it. Null when the provider issued none',
            ),
        })
        .nullable()
        .describe('The current boleto; null until issued'),
      reissueCount: z.number().int().describe('Second copies issued'),
      transactionId: z.number().int().nullable().describe('The current boleto’s transaction'),
      paidAt: iso().nullable(),
      paidAmount: reais('What cleared (may exceed amount with fine and interest)').nullable(),
      paidBy: z.enum(['notification', 'mark_paid']).nullable(),
      paidTransactionId: z.number().int().nullable(),
    })
    .meta({ id: 'Installment', description: 'One installment of a carnê' }),
);

/** Spec: Installment plan (carne), plus our fields. */
export const installmentPlanResponse = z.lazy(() =>
  z
    .object({
      uuid: z.string(),
      object: z.literal('installment_plan'),
      status: z.enum(PLAN_STATUSES),
      cancelReason: z.enum(PLAN_CANCEL_REASONS).nullable(),
      installments: z.number().int(),
      installmentsPaid: z.number().int(),
      baseValue: reais('The product’s cash price at creation'),
      fator: z.number().describe('Interest multiplier frozen at creation (1.0349)'),
      installmentAmount: reais('Each installment'),
      totalScheduled: reais('installmentAmount × installments'),
      totalCollected: reais('What actually cleared; never used in place of totalScheduled'),
      firstDueDate: date(),
      installmentsDetail: z.array(installmentResponse),
      customer: z.object({
        id: z.number().int(),
        uuid: z.string(),
        name: z.string(),
        email: z.string(),
        document: z.string(),
      }),
      product: z.object({ id: z.number().int(), uuid: z.string(), name: z.string() }),
      affiliate: affiliateCommissionResponse.nullable(),
      environment: z.enum(['test', 'live']),
      testClockId: z
        .string()
        .optional()
        .describe("Sandbox only: the test clock it lives on (its customer's); absent in real time"),
      activatedAt: iso().nullable(),
      completedAt: iso().nullable(),
      canceledAt: iso().nullable(),
      createdAt: iso(),
      updatedAt: iso(),
    })
    .meta({ id: 'InstallmentPlan', description: 'A carnê: 2..12 monthly boletos' }),
);

export const installmentPlanListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(installmentPlanResponse),
      count: z.number().int().describe('Plans on this page'),
      totalCount: z.number().int(),
      totalPages: z.number().int(),
    })
    .meta({ id: 'InstallmentPlanList', description: 'A page of installment plans, newest first' }),
);

type _Plan = Assert<Equals<z.output<typeof installmentPlanResponse>, ReturnType<typeof toPlanView>>>;
type _Installment = Assert<
  Equals<z.output<typeof installmentResponse>, ReturnType<typeof toInstallmentView>>
>;
type _List = Assert<
  Equals<z.output<typeof installmentPlanListResponse>, Awaited<ReturnType<typeof listInstallmentPlans>>>
>;
