import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { getReconciliation, listReconciliations } from './reconciliation';

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

const chargeStatus = z.enum(['pending', 'paid', 'failed', 'canceled', 'refunded', 'charged_back']);
const transactionStatus = z.enum([
  'pendingBoleto',
  'pendingPix',
  'authorized',
  'captured',
  'payedBoleto',
  'payedPix',
  'denied',
  'reversed',
  'cancel',
]);

const differenceResponse = z
  .object({
    kind: z
      .enum(['unknown_payment', 'missing_payment', 'amount_mismatch', 'status_mismatch'])
      .describe(
        '`unknown_payment`: the provider holds a payment of no transaction of ours (reported, never turned into one); `missing_payment`: a transaction the provider holds no payment for; `amount_mismatch`, `status_mismatch`: both hold it, differently',
      ),
    providerPaymentId: z.string().nullable().describe("The provider's payment id (Asaas `pay_…`)"),
    gatewayPayId: z.number().int().nullable(),
    transactionId: z.number().int().nullable(),
    providerAmount: z.number().nullable().describe('Reais, as the provider holds it'),
    ourAmount: z.number().nullable().describe('Reais, as the transaction holds it'),
    providerStatus: chargeStatus.nullable(),
    ourStatus: transactionStatus.nullable().describe("The transaction's status when compared"),
    repair: z
      .enum(['charge.paid', 'charge.refunded', 'charge.charged_back'])
      .nullable()
      .describe(
        'What was applied to the transaction (as the provider notification of that type, with its events); null when only reported',
      ),
  })
  .meta({ id: 'ReconciliationDifference' });

const reconciliationFields = {
  id: z.string().describe('`rcn_<yyyymmdd>_…`, one per day and provider'),
  provider: z.string(),
  day: z.iso.date().describe('The Sao Paulo calendar day compared'),
  environment: z.enum(['test', 'live']),
  status: z.enum(['matched', 'differences']),
  providerPayments: z.number().int().describe('Payments the provider listed for the day'),
  transactions: z.number().int().describe('Our transactions of the day with that provider'),
  differenceCount: z.number().int(),
  repairedCount: z.number().int(),
  differences: z.array(differenceResponse).describe('The differences (the first 200)'),
  createdAt: z.iso.datetime(),
};

export const reconciliationResponse = z.lazy(() =>
  z.object(reconciliationFields).meta({
    id: 'Reconciliation',
    description: "A day's comparison of the provider's payments with our transactions",
  }),
);

export const reconciliationListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(reconciliationResponse),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
    })
    .meta({ id: 'ReconciliationList', description: 'A page of reconciliations, newest day first' }),
);

type _List = Assert<Equals<z.output<typeof reconciliationListResponse>, Out<typeof listReconciliations>>>;
type _Detail = Assert<Equals<z.output<typeof reconciliationResponse>, Out<typeof getReconciliation>>>;
