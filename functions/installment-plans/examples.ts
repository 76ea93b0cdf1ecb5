import { chargeCustomer } from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { installmentPlanRoutes } from './routes';

/** Calls of the carnê routes for the API reference (read by the OpenAPI generator and the tests only). */

const guitar = {
  id: 4,
  uuid: '32b16eb4-2d2e-423d-acd6-3a1afd46ff4d',
  name: 'Violão Acústico Tagima',
} as const;
const planUuid = '6199371f-023a-4402-ad16-a95ed8476b03';
const unpaid = { paidAt: null, paidAmount: null, paidBy: null, paidTransactionId: null } as const;
const noTerms = { fine: null, interest: null, discounts: [] } as const;
const firstBoleto = {
  barcodeLine: '00090.00001 07366.511959 96746.300001 2 16860000034497',
  pdfUrl:
    'http://127.0.0.1:3000/api/sandbox/boletos/736651195967463/pdf?token=ffc5fdbe35f039a1b990d0b0ed7b0102',
  dueDate: '2027-01-09',
  pixQrCode:
    '00020101021226680014br.gov.bcb.pix2546pix.sandbox.invalid/qr/v2/cobv/7366511959674635204000053039865406344.975802BR5916SANDBOX SELLER 26009SAO PAULO62070503***63040B08',
} as const;
const first = {
  number: 1,
  amount: 344.97,
  dueDate: '2027-01-09',
  amountDue: 344.97,
  ...noTerms,
  status: 'scheduled',
  boleto: firstBoleto,
  reissueCount: 0,
  transactionId: 30,
  ...unpaid,
} as const;
const later = (number: number, dueDate: string) =>
  ({
    number,
    amount: 344.97,
    dueDate,
    amountDue: null,
    ...noTerms,
    status: 'scheduled',
    boleto: null,
    reissueCount: 0,
    transactionId: null,
    ...unpaid,
  }) as const;
const firstPaid = {
  ...first,
  amountDue: null,
  status: 'paid',
  paidAt: '2026-12-30T17:09:44.395Z',
  paidAmount: 344.97,
  paidBy: 'mark_paid',
  paidTransactionId: 30,
} as const;
const secondReissued = {
  ...later(2, '2027-02-09'),
  amountDue: 344.97,
  boleto: {
    barcodeLine: '00090.00001 03266.076094 84263.100004 7 17280000034497',
    pdfUrl:
      'http://127.0.0.1:3000/api/sandbox/boletos/326607609842631/pdf?token=54a6c18bd3a52351d2d70ff7ca70cb6e',
    dueDate: '2027-02-20',
    pixQrCode:
      '00020101021226680014br.gov.bcb.pix2546pix.sandbox.invalid/qr/v2/cobv/3266076098426315204000053039865406344.975802BR5916SANDBOX SELLER 26009SAO PAULO62070503***6304755C',
  },
  reissueCount: 1,
  transactionId: 36,
} as const;

/** Maria buys the guitar in 3 boletos of R$ 344,97 (factor 1.0349); only the first is registered. */
const plan = {
  uuid: planUuid,
  object: 'installment_plan',
  status: 'pending_activation',
  cancelReason: null,
  installments: 3,
  installmentsPaid: 0,
  baseValue: 1000,
  fator: 1.0349,
  installmentAmount: 344.97,
  totalScheduled: 1034.91,
  totalCollected: 0,
  firstDueDate: '2027-01-09',
  installmentsDetail: [first, later(2, '2027-02-09'), later(3, '2027-03-09')],
  customer: chargeCustomer,
  product: guitar,
  affiliate: null,
  environment: 'test',
  activatedAt: null,
  completedAt: null,
  canceledAt: null,
  createdAt: '2026-12-30T17:09:44.234Z',
  updatedAt: '2026-12-30T17:09:44.234Z',
} as const;
/** Installment 1 paid: the plan is active; installment 2 got its boleto, then a second copy. */
const active = {
  ...plan,
  status: 'active',
  installmentsPaid: 1,
  totalCollected: 344.97,
  installmentsDetail: [firstPaid, secondReissued, later(3, '2027-03-09')],
  activatedAt: '2026-12-30T17:09:44.395Z',
  updatedAt: '2027-01-31T17:09:48.993Z',
} as const;

const bookletToken = `crn_1_test_${planUuid}_Qm7TzVw2Xc9Lp4Rk8Hs3Jd6Nf1Gb5Ya0`;
const bookletUrl = `http://127.0.0.1:3000/carne/${bookletToken}`;

export const examples = defineExamples(installmentPlanRoutes, {
  createInstallmentPlan: {
    body: { productId: guitar.uuid, customerId: 1, installments: 3, firstDueDate: '2027-01-09' },
    responses: { 201: plan },
  },
  listInstallmentPlans: {
    query: { customerId: 1, page: 1, limit: 20 },
    responses: { 200: { data: [plan], count: 1, totalCount: 1, totalPages: 1 } },
  },
  getInstallmentPlan: { path: { uuid: planUuid }, responses: { 200: active } },
  markInstallmentPaid: { path: { uuid: planUuid, number: '1' }, responses: { 200: firstPaid } },
  reissueInstallment: {
    path: { uuid: planUuid, number: '2' },
    body: { dueDate: '2027-02-20' },
    responses: { 200: active },
  },
  cancelInstallmentPlan: {
    path: { uuid: 'daf75377-0fa3-4734-9c0c-9576d24406c5' },
    responses: {
      200: {
        ...plan,
        uuid: 'daf75377-0fa3-4734-9c0c-9576d24406c5',
        status: 'canceled',
        cancelReason: 'seller',
        installments: 6,
        fator: 1.0712,
        installmentAmount: 178.53,
        totalScheduled: 1071.18,
        firstDueDate: '2027-01-31',
        installmentsDetail: [
          {
            ...later(1, '2027-01-31'),
            amount: 178.53,
            status: 'canceled',
            boleto: {
              barcodeLine: '00090.00001 03996.303248 61427.400009 7 17080000017853',
              pdfUrl:
                'http://127.0.0.1:3000/api/sandbox/boletos/399630324614274/pdf?token=8dd07fc6340518e35c928b8665c3a766',
              dueDate: '2027-01-31',
              pixQrCode:
                '00020101021226680014br.gov.bcb.pix2546pix.sandbox.invalid/qr/v2/cobv/3996303246142745204000053039865406178.535802BR5916SANDBOX SELLER 26009SAO PAULO62070503***6304A42A',
            },
            transactionId: 37,
          },
          ...['2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30'].map((dueDate, i) => ({
            ...later(i + 2, dueDate),
            amount: 178.53,
            status: 'canceled' as const,
          })),
        ],
        customer: {
          id: 2,
          uuid: '013a3283-c544-4269-84fd-b6013205486e',
          name: 'João Pereira',
          email: 'joao@example.com',
          document: '71460238508',
        },
        canceledAt: '2027-01-31T17:09:49.064Z',
        createdAt: '2027-01-31T17:09:49.032Z',
        updatedAt: '2027-01-31T17:09:49.064Z',
      },
    },
  },
  getInstallmentPlanBooklet: { path: { uuid: planUuid } },
  shareInstallmentPlanBooklet: {
    path: { uuid: planUuid },
    responses: { 200: { url: bookletUrl, createdAt: '2026-12-30T17:10:02.511Z' } },
  },
  revokeInstallmentPlanBooklet: {
    path: { uuid: planUuid },
    responses: { 200: { url: null, createdAt: null } },
  },
  getPublicBooklet: { path: { token: bookletToken } },
});
