import { BUYER_DECLINE_REASON } from '#shared/domain/payments/cards';
import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { PRODUCT_NOT_FOUND } from '#shared/domain/products/not-found';
import { NotFoundError, ServiceUnavailableError } from '#shared/errors';
import {
  approvedCard,
  boletoSale,
  buyer,
  cardSale,
  declinedCard,
  declinedCardSale,
  paidPixSale,
  pixSale,
  productUuid,
} from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { transactionRoutes } from './routes';

/** Calls of the transaction routes for the API reference (read by the OpenAPI generator and the tests only). */

const affiliateSale = {
  ...pixSale,
  id: 5,
  uuid: '4876bb6a-60e7-44b5-bd26-f4e5d6779f53',
  gatewayPayId: 164929520295095,
  valueSeller: 43.23,
  affiliate: { affiliateId: 3, commissionPercent: 12.5, commission: 6.18, commissionReversed: 0, net: 6.18 },
  pix: {
    qrCode:
      '00020101021126580014br.gov.bcb.pix01367d9f0335-8dcc-4054-9bf9-0dbd61d36906520400005303986540549.905802BR5916SANDBOX SELLER 26009SAO PAULO62290525DQKZo5qkJDcPntVprzoBB0MsX63044AD0',
    txid: 'DQKZo5qkJDcPntVprzoBB0MsX',
    expiresAt: '2026-11-29T17:05:39.623Z',
  },
  date: '2026-11-28T17:05:39.623Z',
  deadline: '2026-11-29T17:05:39.623Z',
  createdAt: '2026-11-28T17:05:39.623Z',
  updatedAt: '2026-11-28T17:05:39.623Z',
} as const;

export const examples = defineExamples(transactionRoutes, {
  createTransaction: [
    {
      name: 'pix',
      summary: 'Pix: the BR Code to show the buyer',
      body: { productId: productUuid, paymentMethod: 'pix', customer: buyer },
      responses: { 201: pixSale },
    },
    {
      name: 'boleto',
      summary: 'Boleto: the linha digitável and the PDF',
      body: { productId: productUuid, paymentMethod: 'boleto', customer: buyer, boletoDueDate: '2026-12-01' },
      responses: { 201: boletoSale },
    },
    {
      name: 'card',
      summary: 'Card 4111 1111 1111 1111 in 3 installments, approved; the card is saved',
      body: {
        productId: productUuid,
        paymentMethod: 'creditcard',
        customer: buyer,
        installments: 3,
        card: approvedCard,
        saveCard: true,
        metadata: { pedido: '1003' },
      },
      responses: { 201: cardSale },
    },
    {
      name: 'card-declined',
      summary:
        "Card 4000 0000 0000 0002: declined (201, status denied); the exact reason only with the seller's key",
      body: { productId: productUuid, paymentMethod: 'creditcard', customer: buyer, card: declinedCard },
      responses: { 201: { ...declinedCardSale, failureReason: BUYER_DECLINE_REASON } },
    },
    {
      name: 'affiliate',
      summary: "Made with an affiliate: 12.5% of the seller's net is the affiliate's commission",
      body: { productId: productUuid, paymentMethod: 'pix', customer: buyer, affiliateId: 3 },
      responses: { 201: affiliateSale },
    },
    {
      name: 'unknown-product',
      summary: 'A product uuid the seller does not have (or deactivated): 404',
      body: { productId: 'a860ad3f-da47-45bf-8f5a-2e37a55c8b6d', paymentMethod: 'pix', customer: buyer },
      errors: { 404: new NotFoundError(PRODUCT_NOT_FOUND) },
    },
    {
      name: 'live-without-provider',
      summary: 'A live product whose seller has not connected a provider: 503, nothing charged',
      body: { productId: productUuid, paymentMethod: 'pix', customer: buyer },
      errors: { 503: new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured') },
    },
  ],
  listTransactions: {
    query: { page: 1, limit: 2, search: 'maria' },
    responses: {
      200: {
        data: [affiliateSale, declinedCardSale],
        count: 2,
        page: 1,
        totalPages: 3,
        nextCursor: 'eyJwayI6IlNFTExFUiMxI3Rlc3QiLCJzayI6IlRYTiMwMDAwMDAwMDAwMDAwMDMifQ',
      },
    },
  },
  getDashboardSummary: {
    query: { from: '2026-11-26', to: '2026-11-28' },
    responses: {
      200: {
        from: '2026-11-26',
        to: '2026-11-28',
        today: '2026-11-28',
        gross: 249.4,
        net: 236.49,
        count: 4,
        averageTicket: 62.35,
        declined: 1,
        approvalRate: 0.8,
        byMethod: {
          pix: { gross: 99.8, net: 98.81, count: 2 },
          boleto: { gross: 49.9, net: 46.41, count: 1 },
          card: { gross: 99.7, net: 91.27, count: 1 },
          pixAutomatic: { gross: 0, net: 0, count: 0 },
        },
        byDay: [
          { date: '2026-11-26', gross: 49.9, net: 46.41, count: 1 },
          { date: '2026-11-27', gross: 0, net: 0, count: 0 },
          { date: '2026-11-28', gross: 199.5, net: 190.08, count: 3 },
        ],
        receivables: {
          until: '2026-12-28',
          total: 188.69,
          days: [
            {
              date: '2026-12-02',
              pendingPix: 0,
              pendingBoleto: 46.41,
              card: 0,
              boletoClearing: 0,
              total: 46.41,
            },
            {
              date: '2026-12-28',
              pendingPix: 0,
              pendingBoleto: 0,
              card: 142.28,
              boletoClearing: 0,
              total: 142.28,
            },
          ],
        },
        upcoming: {
          scheduledCharges: {
            totalCount: 1,
            items: [
              { id: 'sch_Q2x8LmN4pR7tV1wZ', customerName: 'Maria Souza', amount: 120, dueDate: '2026-12-05' },
            ],
          },
          installments: {
            more: false,
            items: [
              {
                planUuid: '8d2f6a4e-1b3c-4d5e-9f70-a1b2c3d4e5f6',
                number: 2,
                of: 6,
                customerName: 'João Lima',
                amount: 83.17,
                dueDate: '2026-12-10',
              },
            ],
          },
          renewals: {
            more: false,
            items: [{ subscriptionId: 12, customerName: 'Ana Reis', amount: 49.9, date: '2026-12-15' }],
          },
        },
        recentActivity: [
          {
            id: 'evt_4kQm9TzR2bWcX7vN1pL8sD3f',
            event: 'transaction.payment.succeeded',
            timestamp: '2026-11-28T17:42:05.310Z',
            data: { id: 1042, status: 'payedPix', value: 49.9 },
          },
        ],
      },
    },
  },
  handleProviderNotification: [
    {
      name: 'applied',
      summary: 'The payment was confirmed: the pix is paid',
      responses: {
        201: { received: true, applied: true, duplicate: false, transactionId: 1, status: 'payedPix' },
      },
    },
    {
      name: 'duplicate',
      summary: 'The same notification again: nothing changes',
      responses: {
        201: { received: true, applied: false, duplicate: true, transactionId: 1, status: 'payedPix' },
      },
    },
  ],
  getTransactionStatus: {
    path: { gatewayPayId: String(paidPixSale.gatewayPayId) },
    responses: { 200: 'payedPix' },
  },
  getTransaction: { path: { id: '1' }, responses: { 200: paidPixSale } },
  getTransactionTimeline: {
    path: { id: '1' },
    responses: {
      200: {
        id: 1,
        provider: {
          name: 'sandbox',
          gatewayPayId: paidPixSale.gatewayPayId,
          pixTxid: paidPixSale.pix?.txid ?? null,
          boletoBarcode: null,
        },
        statusChanges: [
          { step: 'created', at: paidPixSale.createdAt, amount: paidPixSale.value, detail: null },
          { step: 'paid', at: paidPixSale.paidAt ?? paidPixSale.createdAt, amount: null, detail: null },
        ],
        events: [],
      },
    },
  },
  cancelTransactionByGatewayPayId: {
    path: { id: String(boletoSale.gatewayPayId) },
    responses: { 200: true },
  },
  refundTransaction: {
    path: { id: '3' },
    body: { amount: 20, reason: 'Desistência de uma aula' },
    responses: {
      200: {
        ...cardSale,
        refundedAmount: 20,
        refunds: [
          {
            id: 're_ng3XFui9BZYLkP1pu1wd',
            amount: 20,
            reason: 'Desistência de uma aula',
            createdAt: '2026-11-28T17:25:41.314Z',
          },
        ],
        updatedAt: '2026-11-28T17:25:41.314Z',
      },
    },
  },
  listCharges: {
    query: { status: 'pendingBoleto', limit: 10 },
    responses: { 200: { data: [boletoSale], nextCursor: null, hasMore: false } },
  },
  cancelCharge: { path: { uuid: boletoSale.uuid }, responses: { 200: { canceled: true } } },
  getSandboxBoletoPdf: {
    path: { gatewayPayId: String(boletoSale.gatewayPayId) },
    query: { token: '596e56f3a6ac072fa0614dea59e98b1b' },
  },
});
