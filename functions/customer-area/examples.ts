import { defineExamples } from '#shared/http/examples';
import { customerAreaRoutes } from './routes';

/** Calls of the customer area (minha-área) for the API reference (read by the OpenAPI generator and the tests only). */

const seller = { sellerId: 2, sellerName: 'Escola Harmonia' } as const;
const lessons = {
  ...seller,
  kind: 'scheduled_charge',
  id: 'sch_test_Y5GJaLZvCiARORaE1GRxSQBS',
  description: 'Aulas particulares (2027)',
  amount: 54.9,
} as const;
const payUrl = (token: string) =>
  `http://127.0.0.1:3000/cobranca/cob_2_sch_test_Y5GJaLZvCiARORaE1GRxSQBS_${token}`;
const carne = {
  ...seller,
  kind: 'installment',
  id: '6199371f-023a-4402-ad16-a95ed8476b03',
  amount: 344.97,
} as const;

export const examples = defineExamples(customerAreaRoutes, {
  requestMagicLink: [
    {
      name: 'document',
      summary: "By CPF: the link goes to the customer's registered e-mail, shown masked",
      body: { document: '529.982.247-25' },
      responses: { 200: { maskedEmail: 'm***@example.com' } },
    },
    {
      name: 'nobody',
      summary: 'Nobody matched: the same 200, after the same time',
      body: { email: 'ninguem@example.com' },
      responses: { 200: { maskedEmail: null } },
    },
  ],
  listCustomerAreaCharges: {
    responses: {
      200: {
        customer: { name: 'Maria Souza', environment: 'test' },
        sellers: [
          {
            ...seller,
            logoUrl: 'https://cdn.example.com/harmonia.png',
            billingEmailOverride: 'financeiro@example.com',
          },
        ],
        data: [
          {
            ...lessons,
            number: 2,
            dueDate: '2026-12-29',
            status: 'overdue',
            open: true,
            payUrl: payUrl('TEg9oyUKvndkr8OT2QdmvIhBYfcy27Wj'),
          },
          {
            ...carne,
            number: 1,
            description: 'Violão Acústico Tagima (carnê 1/3)',
            dueDate: '2027-01-09',
            status: 'paid',
            open: false,
            payUrl: null,
          },
          {
            ...lessons,
            number: 3,
            dueDate: '2027-01-29',
            status: 'scheduled',
            open: true,
            payUrl: payUrl('XGcCkMQ2wWnkJCh7ElTtwpSvbznL2t1W'),
          },
          {
            ...carne,
            number: 2,
            description: 'Violão Acústico Tagima (carnê 2/3)',
            dueDate: '2027-02-09',
            status: 'scheduled',
            open: true,
            payUrl:
              'http://127.0.0.1:3000/api/sandbox/boletos/326607609842631/pdf?token=54a6c18bd3a52351d2d70ff7ca70cb6e',
          },
        ],
      },
    },
  },
  setCustomerAreaBillingEmail: [
    {
      name: 'set',
      summary: 'Escola Harmonia bills another address from now on',
      body: { sellerId: 2, billingEmailOverride: 'financeiro@example.com' },
      responses: { 200: { success: true } },
    },
    {
      name: 'clear',
      summary: 'Back to the registered e-mail',
      body: { sellerId: 2, billingEmailOverride: null },
      responses: { 200: { success: true } },
    },
  ],
});
