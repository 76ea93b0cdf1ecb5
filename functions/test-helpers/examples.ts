import { boletoSale, paidPixSale, pixSale } from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { testHelperRoutes } from './routes';

/** Calls of the sandbox helpers for the API reference (read by the OpenAPI generator and the tests only). */

/** Another pix of Maria's, paid, then charged back by her bank. */
const chargedBack = {
  ...pixSale,
  id: 8,
  uuid: 'e29124ee-86ee-4d75-9702-98bb9a6bc242',
  gatewayPayId: 419424412013106,
  status: 'reversed',
  date: '2026-11-28T17:05:41.453Z',
  deadline: '2026-11-29T17:05:41.453Z',
  pix: {
    qrCode:
      '00020101021126580014br.gov.bcb.pix01367d9f0335-8dcc-4054-9bf9-0dbd61d36906520400005303986540549.905802BR5916SANDBOX SELLER 26009SAO PAULO622905254Lz4PQyir9ZsPEkokfw0MyrqD63046EF9',
    txid: '4Lz4PQyir9ZsPEkokfw0MyrqD',
    expiresAt: '2026-11-29T17:05:41.453Z',
  },
  failureCode: 'chargeback',
  paidAt: '2026-11-28T17:05:41.689Z',
  chargeback: { status: 'open', openedAt: '2026-11-28T17:05:43.273Z', closedAt: null },
  createdAt: '2026-11-28T17:05:41.453Z',
  updatedAt: '2026-11-28T17:05:43.273Z',
} as const;
const mail = {
  id: 'msg_0mx0nvr3zpygjHgAzWeAtKOKu',
  to: 'maria@example.com',
  subject: '[TESTE] Recibo do seu pagamento: Curso de Violão',
  kind: 'receipt',
  createdAt: '2026-11-28T17:06:12.839Z',
} as const;
const row = (label: string, value: string) =>
  `<tr><th style="padding:6px 12px;border-bottom:1px solid #e5e5e5;text-align:left;font-weight:normal;color:#666">${label}</th><td style="padding:6px 12px;border-bottom:1px solid #e5e5e5">${value}</td></tr>`;

/** A clock at the start of Maria's subscription, then advanced past its first renewal. */
const testClock = {
  id: 'clock_4mQ1ZkTfV0sXb8RrN2cLw7Hd',
  name: 'Renovações de Maria',
  frozenTime: '2026-11-28T17:00:00.000Z',
  status: 'ready',
  createdAt: '2026-11-28T17:05:30.112Z',
  updatedAt: '2026-11-28T17:05:30.112Z',
  deletesAfter: '2026-12-28T17:05:30.112Z',
} as const;

export const examples = defineExamples(testHelperRoutes, {
  createTestClock: {
    body: { frozenTime: testClock.frozenTime, name: testClock.name },
    responses: { 201: testClock },
  },
  listTestClocks: {
    query: { limit: 20 },
    responses: { 200: { data: [testClock], nextCursor: null } },
  },
  getTestClock: {
    path: { id: testClock.id },
    responses: { 200: testClock },
  },
  deleteTestClock: {
    path: { id: testClock.id },
    responses: { 200: { id: testClock.id, deleted: true } },
  },
  advanceTestClock: {
    summary: 'One month and an hour later: the monthly subscription on it renewed on the way',
    path: { id: testClock.id },
    body: { frozenTime: '2026-12-28T18:00:00.000Z' },
    responses: {
      200: { ...testClock, frozenTime: '2026-12-28T18:00:00.000Z', updatedAt: '2026-11-28T17:06:02.540Z' },
    },
  },
  emitTestEvent: {
    body: { event: 'product.updated' },
    responses: {
      201: {
        id: 'evt_WGOHCIYlZ6W3WUsd1kfvggCu',
        event: 'product.updated',
        timestamp: '2026-11-28T17:05:35.889Z',
        data: { id: 'test_tg4lcfzHzWSk4Ef1', updatedAt: '2026-11-28T17:05:35.889Z' },
      },
    },
  },
  payTestTransaction: [
    {
      name: 'pix',
      summary: "The buyer's bank pays the pix: payedPix, and transaction.payment.succeeded is sent",
      path: { id: '1' },
      responses: { 200: paidPixSale },
    },
    {
      name: 'no-notification',
      summary: 'The bank settles the boleto but its notification never arrives (then mark-paid)',
      path: { id: '2' },
      body: { notify: false },
      responses: { 200: boletoSale },
    },
  ],
  failTestTransaction: {
    path: { id: '7' },
    body: { failureCode: 'payment_failed' },
    responses: {
      200: {
        ...pixSale,
        id: 7,
        uuid: '799891ef-af56-4bb2-9448-2f6b5697dbdb',
        gatewayPayId: 703324991505447,
        status: 'denied',
        date: '2026-11-28T17:05:41.425Z',
        deadline: '2026-11-29T17:05:41.425Z',
        pix: {
          qrCode:
            '00020101021126580014br.gov.bcb.pix01367d9f0335-8dcc-4054-9bf9-0dbd61d36906520400005303986540549.905802BR5916SANDBOX SELLER 26009SAO PAULO62290525gFgvDAo9UIL7Wx8h37dNQPw2K63041BD4',
          txid: 'gFgvDAo9UIL7Wx8h37dNQPw2K',
          expiresAt: '2026-11-29T17:05:41.425Z',
        },
        failureCode: 'payment_failed',
        failureReason: 'The payment was not completed',
        createdAt: '2026-11-28T17:05:41.425Z',
        updatedAt: '2026-11-28T17:05:41.614Z',
      },
    },
  },
  chargebackTestTransaction: {
    path: { id: '8' },
    body: {},
    responses: { 200: chargedBack },
  },
  reverseChargebackTestTransaction: {
    path: { id: '8' },
    body: {},
    responses: {
      200: {
        ...chargedBack,
        status: 'payedPix',
        failureCode: null,
        chargeback: { ...chargedBack.chargeback, status: 'won', closedAt: '2026-11-28T17:05:44.835Z' },
        updatedAt: '2026-11-28T17:05:44.835Z',
      },
    },
  },
  setTestPaymentMethodOutcome: [
    {
      name: 'declined',
      summary: "Maria's saved card declines its next renewals for insufficient funds",
      path: { id: '1' },
      body: { outcome: 'declined', failureCode: 'insufficient_funds' },
      responses: { 200: { paymentMethodId: 1, outcome: 'declined', failureCode: 'insufficient_funds' } },
    },
    {
      name: 'approved',
      summary: 'It approves them again',
      path: { id: '1' },
      body: { outcome: 'approved' },
      responses: { 200: { paymentMethodId: 1, outcome: 'approved', failureCode: null } },
    },
  ],
  approveTestPixAuthorization: {
    path: { id: 'pixauth_ZT4Kcf7WRJWPes0s9uKHTQaD' },
    responses: { 200: { id: 'pixauth_ZT4Kcf7WRJWPes0s9uKHTQaD', status: 'active' } },
  },
  revokeTestPixAuthorization: {
    path: { id: 'pixauth_ZT4Kcf7WRJWPes0s9uKHTQaD' },
    responses: { 200: { id: 'pixauth_ZT4Kcf7WRJWPes0s9uKHTQaD', status: 'revoked' } },
  },
  listTestMail: {
    query: { to: 'maria@example.com', limit: 1 },
    responses: { 200: { data: [mail], nextCursor: 'msg_0mx0nvr3zpygjHgAzWeAtKOKu' } },
  },
  getTestMail: {
    path: { id: mail.id },
    responses: {
      200: {
        ...mail,
        text: 'Ambiente de testes: nenhuma cobrança real foi feita.\n\nOlá, Maria Souza!\n\nRecebemos o seu pagamento. Este é o seu recibo.\n\nProduto: Curso de Violão\nValor: R$ 49,90\nForma de pagamento: Pix\nData do pagamento: 28/11/2026 às 14:06 (horário de Brasília)\nTransação: 1\n\nGuarde este e-mail como comprovante do pagamento.\n',
        html: [
          '<!DOCTYPE html>',
          '<html lang="pt-BR"><head><meta charset="utf-8"><title>Recibo</title></head>',
          '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;margin:0;padding:24px">',
          '<p style="background:#fff4ce;padding:8px 12px;border-radius:4px">Ambiente de testes: nenhuma cobrança real foi feita.</p>',
          '<p>Olá, Maria Souza!</p>',
          '<p>Recebemos o seu pagamento. Este é o seu recibo.</p>',
          '<table style="border-collapse:collapse" role="presentation">',
          row('Produto', 'Curso de Violão'),
          row('Valor', 'R$ 49,90'),
          row('Forma de pagamento', 'Pix'),
          row('Data do pagamento', '28/11/2026 às 14:06 (horário de Brasília)'),
          row('Transação', '1'),
          '</table>',
          '<p>Guarde este e-mail como comprovante do pagamento.</p>',
          '</body></html>',
        ].join('\n'),
      },
    },
  },
});
