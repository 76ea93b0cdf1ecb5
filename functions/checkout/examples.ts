import { SESSION_CANNOT_BE_EXPIRED } from '#shared/domain/checkout/session';
import { buyerFailure } from '#shared/domain/payments/cards';
import { qrCodeDataUrl } from '#shared/domain/payments/qr-image';
import { ConflictError } from '#shared/errors';
import { approvedCard, buyer, product, productUuid } from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { checkoutRoutes } from './routes';

/** Calls of the checkout session routes for the API reference (read by the OpenAPI generator and the tests only). */

// A session id ends with its product's uuid (hex).
/** The sandbox boleto's pix (the boleto híbrido), as the sandbox builds it for that boleto. */
const boletoPix =
  '00020101021226680014br.gov.bcb.pix2546pix.sandbox.invalid/qr/v2/cobv/146596946617307520400005303986540549.905802BR5916SANDBOX SELLER 26009SAO PAULO62070503***6304C962';
const sessionId = (random: string) => `cs_test_${random}${productUuid.replaceAll('-', '')}`;
const noCustomer = {
  'customer.name': null,
  'customer.email': null,
  'customer.document': null,
  'customer.phone': null,
  'customer.zip_code': null,
  'customer.street': null,
  'customer.number': null,
  'customer.complement': null,
  'customer.neighborhood': null,
  'customer.city': null,
  'customer.state': null,
} as const;
const session = {
  object: 'checkout.session',
  status: 'open',
  product_id: 1,
  price_id: null,
  customer_email: null,
  customer_name: null,
  customer: noCustomer,
  payment_methods: ['pix', 'boleto', 'card'],
  metadata: {},
  success_url: null,
  cancel_url: null,
  client_reference_id: null,
  affiliate_id: null,
  transaction_id: null,
  subscription_id: null,
  environment: 'test',
  completed_at: null,
} as const;

const openId = sessionId('6xWh6kh81YyQhKZtGiZZUo6x');
const open = {
  ...session,
  id: openId,
  url: `http://127.0.0.1:3000/checkout/${openId}`,
  customer_email: 'maria@example.com',
  customer_name: 'Maria Souza',
  customer: { ...noCustomer, 'customer.name': 'Maria Souza', 'customer.email': 'maria@example.com' },
  payment_methods: ['pix', 'card'],
  metadata: { pedido: '1042' },
  success_url: 'https://example.com/obrigado?session={SESSION_ID}',
  cancel_url: 'https://example.com/carrinho',
  client_reference_id: 'pedido-1042',
  expires_at: '2026-11-29T17:09:28.785Z',
  created_at: '2026-11-28T17:09:28.785Z',
  updated_at: '2026-11-28T17:09:28.785Z',
} as const;

const paidId = sessionId('qUnLmNZMSR5nYp2Fsifvm7GP');
const paid = {
  ...session,
  id: paidId,
  url: `http://127.0.0.1:3000/checkout/${paidId}`,
  status: 'complete',
  customer_email: 'maria@example.com',
  customer_name: 'Maria Souza',
  customer: {
    ...noCustomer,
    'customer.name': 'Maria Souza',
    'customer.email': 'maria@example.com',
    'customer.document': '52998224725',
    'customer.phone': '11987654321',
  },
  transaction_id: 14,
  expires_at: '2026-11-29T17:09:29.359Z',
  completed_at: '2026-11-28T17:09:29.508Z',
  created_at: '2026-11-28T17:09:29.359Z',
  updated_at: '2026-11-28T17:09:29.508Z',
} as const;

const subscribeId = sessionId('8XnTzOCkGqtqLH1ADM64SI6K');
const expiredId = sessionId('R5Lnb9EacCwOj9Y5i0OTcCVM');
const pixAutomaticId = sessionId('Y6Le4rKZ9oQrBJv63jNaT52W');

const qrCode =
  '00020101021126580014br.gov.bcb.pix01367d9f0335-8dcc-4054-9bf9-0dbd61d36906520400005303986540549.905802BR5916SANDBOX SELLER 26009SAO PAULO62290525MHJWDBHI7MMjHnJKiltj6hRrf63044442';
const pixPayment = {
  paymentId: 'c31c84f5-e0f6-47dc-80e7-a0414f26f620',
  orderNumber: 1042,
  receiptByEmail: false,
  status: 'pending',
  method: 'pix',
  value: 49.9,
  installments: 1,
  pix: { qrCode, qrCodeImage: await qrCodeDataUrl(qrCode), expiresAt: '2026-11-29T17:09:28.785Z' },
  boleto: null,
  card: null,
  failure: null,
  redirectUrl: null,
  subscription: null,
} as const;
const cardPayment = {
  ...pixPayment,
  method: 'card',
  pix: null,
  card: { brand: 'visa', last4: '1111' },
} as const;

export const examples = defineExamples(checkoutRoutes, {
  createCheckoutSession: [
    {
      name: 'sale',
      summary: 'A sale with the buyer prefilled, your order number and where to return',
      body: {
        product_id: 1,
        customer: { 'customer.name': 'Maria Souza', 'customer.email': 'maria@example.com' },
        payment_methods: ['pix', 'card'],
        metadata: { pedido: '1042' },
        success_url: 'https://example.com/obrigado?session={SESSION_ID}',
        cancel_url: 'https://example.com/carrinho',
        client_reference_id: 'pedido-1042',
      },
      responses: { 201: open },
    },
    {
      name: 'subscription',
      summary: 'A subscription to the monthly price (price 1)',
      body: { product_id: 1, price_id: '1', customer: { 'customer.email': 'maria@example.com' } },
      responses: {
        201: {
          ...session,
          id: subscribeId,
          url: `http://127.0.0.1:3000/checkout/${subscribeId}`,
          price_id: '1',
          customer_email: 'maria@example.com',
          customer: { ...noCustomer, 'customer.email': 'maria@example.com' },
          payment_methods: ['pix', 'card'],
          expires_at: '2026-11-29T17:09:31.436Z',
          created_at: '2026-11-28T17:09:31.436Z',
          updated_at: '2026-11-28T17:09:31.436Z',
        },
      },
    },
  ],
  listCheckoutSessions: {
    query: { status: 'complete', limit: 10 },
    responses: { 200: { data: [paid], count: 1, totalCount: 1, totalPages: 1 } },
  },
  getCheckoutSession: { path: { id: paidId }, responses: { 200: { data: paid } } },
  expireCheckoutSession: [
    {
      name: 'open',
      summary: 'An open session: expired now, checkout.session.expired is sent',
      path: { id: expiredId },
      responses: {
        200: {
          data: {
            ...session,
            id: expiredId,
            url: `http://127.0.0.1:3000/checkout/${expiredId}`,
            status: 'expired',
            expires_at: '2026-11-29T17:09:31.086Z',
            created_at: '2026-11-28T17:09:31.086Z',
            updated_at: '2026-11-28T17:09:31.101Z',
          },
        },
      },
    },
    {
      name: 'complete',
      summary: 'A paid session cannot be expired: 409',
      path: { id: paidId },
      errors: { 409: new ConflictError(SESSION_CANNOT_BE_EXPIRED, 'session_not_open') },
    },
  ],
  getCheckoutPage: {
    path: { ref: openId },
    responses: {
      200: {
        kind: 'session',
        ref: openId,
        state: 'open',
        unavailableReason: null,
        environment: 'test',
        product: {
          uuid: productUuid,
          name: product.name,
          description: product.description,
          image: product.image,
          value: 49.9,
          methods: ['pix', 'card'],
          maxInstallments: 6,
        },
        price: null,
        customer: {
          name: 'Maria Souza',
          email: 'maria@example.com',
          document: null,
          phone: null,
          zipCode: null,
          street: null,
          number: null,
          complement: null,
          neighborhood: null,
          city: null,
          state: null,
        },
        successUrl: `https://example.com/obrigado?session=${openId}`,
        cancelUrl: 'https://example.com/carrinho',
        expiresAt: '2026-11-29T17:09:28.785Z',
        payment: null,
        seller: {
          name: 'Loja da Ana',
          logoUrl: 'https://cdn.lojadaana.com.br/logo.png',
          brandColor: '#1a73e8',
        },
      },
    },
  },
  payCheckout: [
    {
      name: 'pix',
      summary: 'Pix: the BR Code and its QR code image; poll the payment until it is paid',
      path: { ref: openId },
      body: { paymentMethod: 'pix', customer: buyer },
      responses: { 201: pixPayment },
    },
    {
      name: 'card',
      summary: 'Card 4111 1111 1111 1111 in 2 installments: paid, go on to the success URL',
      path: { ref: openId },
      body: { paymentMethod: 'card', customer: buyer, installments: 2, card: approvedCard },
      responses: {
        201: {
          ...cardPayment,
          paymentId: '4ddc51d8-2844-40a2-b3ab-9adb60507fab',
          orderNumber: 1043,
          receiptByEmail: true,
          status: 'paid',
          installments: 2,
          redirectUrl: `https://example.com/obrigado?session=${openId}`,
        },
      },
    },
    {
      name: 'card-declined',
      summary:
        'Card 4000 0000 0000 9995: declined; the buyer reads a plain refusal, the reason stays with the seller',
      path: { ref: openId },
      body: {
        paymentMethod: 'card',
        customer: buyer,
        card: { ...approvedCard, number: '4000000000009995' },
      },
      responses: {
        201: {
          ...cardPayment,
          paymentId: 'fc8a5bba-3936-4cb6-b7eb-be0bd0145675',
          orderNumber: 1044,
          status: 'declined',
          card: { brand: 'visa', last4: '9995' },
          failure: buyerFailure('insufficient_funds'),
        },
      },
    },
    {
      name: 'boleto',
      summary: "Boleto on the product's payment link (the ref is the product uuid)",
      path: { ref: productUuid },
      body: { paymentMethod: 'boleto', customer: buyer },
      responses: {
        201: {
          ...pixPayment,
          paymentId: 'cbb88c3f-c186-4373-abe2-f662e56a011b',
          orderNumber: 1045,
          method: 'boleto',
          pix: null,
          boleto: {
            digitableLine: '00090000010146596946561730700004816470000004990',
            formattedLine: '00090.00001 01465.969465 61730.700004 8 16470000004990',
            barcode: '00098164700000049900000001465969466173070000',
            dueDate: '2026-12-01',
            pdfUrl:
              'http://127.0.0.1:3000/api/sandbox/boletos/146596946617307/pdf?token=2602ec4c04c3b3d9c972dd5ffd5d5409',
            pixQrCode: boletoPix,
            pixQrCodeImage: await qrCodeDataUrl(boletoPix),
          },
        },
      },
    },
  ],
  getCheckoutPayment: {
    path: { ref: openId, paymentId: pixPayment.paymentId },
    responses: { 200: pixPayment },
  },
  payTestCheckoutSession: [
    {
      name: 'card',
      summary: "Pays a session by card with the session's prefilled buyer, as the page would",
      path: { id: paidId },
      body: { paymentMethod: 'card', card: approvedCard, installments: 2 },
      responses: { 200: { data: paid } },
    },
    {
      name: 'pix-automatic',
      summary: 'Pays a subscription session by pix: a Pix Automático subscription starts',
      path: { id: pixAutomaticId },
      body: {
        paymentMethod: 'pix',
        customer: {
          name: 'João Pereira',
          email: 'joao@example.com',
          document: '714.602.385-08',
          phone: '21998765432',
        },
      },
      responses: {
        200: {
          data: {
            ...session,
            id: pixAutomaticId,
            url: `http://127.0.0.1:3000/checkout/${pixAutomaticId}`,
            status: 'complete',
            price_id: '1',
            customer_email: 'joao@example.com',
            customer: { ...noCustomer, 'customer.email': 'joao@example.com' },
            payment_methods: ['pix', 'card'],
            transaction_id: 17,
            subscription_id: 3,
            expires_at: '2026-11-29T17:09:33.857Z',
            completed_at: '2026-11-28T17:09:34.082Z',
            created_at: '2026-11-28T17:09:33.857Z',
            updated_at: '2026-11-28T17:09:34.082Z',
          },
        },
      },
    },
  ],
});
