/**
 * The one story the API reference's examples tell, so that ids, names and amounts agree from one
 * operation to the next: the seller Escola Harmonia (seller 2, sandbox) sells its "Curso de
 * Violão" (product 1, R$ 49,90) to the README's buyer, Maria Souza (customer 1), by pix, boleto and
 * card. Values were answered by the local runtime, then picked by hand. Groups' own examples live
 * in `functions/<group>/examples.ts`; what several groups show is here.
 */

/** The README's buyer, as a sale sends her (masks accepted). */
export const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
} as const;

/** The sandbox's approving test card, and one it declines (`card_declined`). */
export const approvedCard = {
  number: '4111111111111111',
  holderName: 'MARIA SOUZA',
  expiryMonth: 12,
  expiryYear: 2031,
  cvv: '123',
} as const;
export const declinedCard = { ...approvedCard, number: '4000000000000002' } as const;

export const productUuid = '0882f371-ad42-4424-add0-4b436ca56891';

/** The product as its routes answer it. */
export const product = {
  id: 1,
  uuid: productUuid,
  sellerId: 2,
  environment: 'test',
  name: 'Curso de Violão',
  image: 'https://example.com/violao.png',
  value: 49.9,
  description: 'Curso online de violão para iniciantes: 40 aulas em vídeo.',
  pix: true,
  creditCard: true,
  boleto: true,
  installments: 6,
  carne: { enabled: false, maxInstallments: 12, interestFactors: {} },
  isActive: true,
  paymentLink: `http://127.0.0.1:3000/pay/${productUuid}`,
  createdAt: '2026-11-28T17:05:38.663Z',
  updatedAt: '2026-11-28T17:05:38.663Z',
} as const;

/** Maria as a transaction shows her (the document's digits only). */
export const saleCustomer = {
  id: 1,
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
  phone: '11987654321',
} as const;

const saleProduct = { id: 1, name: 'Curso de Violão', value: 49.9, uuid: productUuid } as const;

const sale = {
  refundedAmount: 0,
  value: 49.9,
  customer: saleCustomer,
  product: saleProduct,
  isRecurring: false,
  subscriptionId: null,
  billingCycle: null,
  pix: null,
  boleto: null,
  card: null,
  failureCode: null,
  failureReason: null,
  refunds: [],
  paidAt: null,
  canceledAt: null,
  environment: 'test',
  metadata: {},
  checkoutSessionId: null,
  clientReferenceId: null,
  affiliate: null,
  chargeback: null,
  fine: null,
  interest: null,
  discounts: [],
  amountDue: null,
  paidAmount: null,
  paidWith: null,
  fineAmount: null,
  interestAmount: null,
  discountAmount: null,
} as const;

/** What a payment at face value records. */
const paidAtFace = <W extends 'pix' | 'boleto' | 'creditcard'>(value: number, paidWith: W) =>
  ({
    amountDue: null,
    paidAmount: value,
    paidWith,
    fineAmount: 0,
    interestAmount: 0,
    discountAmount: 0,
  }) as const;

/** Maria's pix sale, waiting for the payment: show the BR Code (`pix.qrCode`) as a QR code. */
export const pixSale = {
  ...sale,
  id: 1,
  uuid: '61528ddf-882f-4bc4-a45e-84db8eb5dddc',
  gatewayPayId: 288375406926072,
  status: 'pendingPix',
  valueSeller: 49.41,
  paymentMethod: 'pix',
  installments: null,
  amountDue: 49.9,
  date: '2026-11-28T17:05:39.225Z',
  deadline: '2026-11-29T17:05:39.225Z',
  pix: {
    qrCode:
      '00020101021126580014br.gov.bcb.pix01367d9f0335-8dcc-4054-9bf9-0dbd61d36906520400005303986540549.905802BR5916SANDBOX SELLER 26009SAO PAULO62290525IWAaW6RzCnelqo5qJsHaZDpne63043744',
    txid: 'IWAaW6RzCnelqo5qJsHaZDpne',
    expiresAt: '2026-11-29T17:05:39.225Z',
  },
  createdAt: '2026-11-28T17:05:39.225Z',
  updatedAt: '2026-11-28T17:05:39.225Z',
} as const;

/** The same sale once the bank paid it. */
export const paidPixSale = {
  ...pixSale,
  ...paidAtFace(49.9, 'pix'),
  status: 'payedPix',
  paidAt: '2026-11-28T17:06:12.692Z',
  updatedAt: '2026-11-28T17:06:12.692Z',
} as const;

/** Maria's boleto sale: the linha digitável and the PDF, due in 3 days. */
export const boletoSale = {
  ...sale,
  id: 2,
  uuid: '85cce2c7-beb0-43e0-9606-d44251408259',
  gatewayPayId: 991563122715248,
  status: 'pendingBoleto',
  valueSeller: 46.41,
  paymentMethod: 'boleto',
  installments: null,
  fine: { type: 'percentage', value: 2 },
  interest: { percentPerMonth: 1 },
  amountDue: 49.9,
  date: '2026-11-28T17:05:39.347Z',
  deadline: '2026-12-01',
  boleto: {
    barcode: '00092164700000049900000009915631227152480000',
    digitableLine: '00090000010991563122171524800001216470000004990',
    formattedLine: '00090.00001 09915.631221 71524.800001 2 16470000004990',
    dueDate: '2026-12-01',
    pdfUrl:
      'http://127.0.0.1:3000/api/sandbox/boletos/991563122715248/pdf?token=596e56f3a6ac072fa0614dea59e98b1b',
    pixQrCode:
      '00020101021226680014br.gov.bcb.pix2546pix.sandbox.invalid/qr/v2/cobv/991563122715248520400005303986540549.905802BR5916SANDBOX SELLER 26009SAO PAULO62070503***630432A7',
  },
  createdAt: '2026-11-28T17:05:39.347Z',
  updatedAt: '2026-11-28T17:05:39.347Z',
} as const;

/** Maria's card sale in 3 installments, approved at once (4111 1111 1111 1111), the card saved. */
export const cardSale = {
  ...sale,
  id: 3,
  uuid: '883550b8-eeed-4316-a9ea-d3195d338d66',
  gatewayPayId: 465163378601308,
  status: 'captured',
  valueSeller: 46.03,
  paymentMethod: 'creditcard',
  installments: 3,
  ...paidAtFace(49.9, 'creditcard'),
  date: '2026-11-28T17:05:39.420Z',
  deadline: null,
  card: { brand: 'visa', last4: '1111' },
  paidAt: '2026-11-28T17:05:39.420Z',
  metadata: { pedido: '1003' },
  createdAt: '2026-11-28T17:05:39.420Z',
  updatedAt: '2026-11-28T17:05:39.420Z',
} as const;

/**
 * A card the issuer declines (4000 0000 0000 0002), status `denied`, as the seller reads it; the
 * answer to a sale made without the seller's key gives the buyer's plain reason instead.
 */
export const declinedCardSale = {
  ...sale,
  id: 4,
  uuid: '63e51b7b-ba22-47f1-aaf7-2be963afac71',
  gatewayPayId: 951097318619290,
  status: 'denied',
  valueSeller: 47.52,
  paymentMethod: 'creditcard',
  installments: 1,
  date: '2026-11-28T17:05:39.560Z',
  deadline: null,
  card: { brand: 'visa', last4: '0002' },
  failureCode: 'card_declined',
  failureReason: 'The card was declined by the issuer.',
  createdAt: '2026-11-28T17:05:39.560Z',
  updatedAt: '2026-11-28T17:05:39.560Z',
} as const;

/** Maria as a scheduled charge or a carnê shows her. */
export const chargeCustomer = {
  id: 1,
  uuid: '5c5b366a-15a7-48ff-bba2-482f72a5e122',
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
} as const;

const seriesId = 'sch_test_Y5GJaLZvCiARORaE1GRxSQBS';
const payUrl = (token: string) => `http://127.0.0.1:3000/cobranca/cob_2_${seriesId}_${token}`;

/**
 * Maria's monthly private lessons by card (a recurring scheduled charge): cycle 1 paid on its link
 * with 4111 1111 1111 1111, cycle 2's silent charge declined for insufficient funds, retried later.
 */
export const lessons = {
  id: seriesId,
  object: 'scheduled_charge',
  customerId: 1,
  amount: 54.9,
  dueDate: '2026-12-29',
  methods: ['card'],
  status: 'overdue',
  type: 'recurring',
  description: 'Aulas particulares (2027)',
  recurrence: { interval: 'month', intervalCount: 1, endAfterCycles: 6, endDate: null },
  trialDays: 0,
  trialEndsOn: null,
  paymentMethod: { id: 1, cardBrand: 'visa', cardLast4: '1111' },
  cancelAtPeriodEnd: false,
  pausedAt: null,
  canceledAt: null,
  customer: chargeCustomer,
  product: { id: 1, uuid: productUuid, name: 'Curso de Violão' },
  fine: null,
  interest: null,
  discounts: [],
  environment: 'test',
  createdAt: '2026-11-28T17:09:34.547Z',
  updatedAt: '2026-12-30T03:00:00.002Z',
} as const;

const cycle = {
  paidAt: null,
  paidBy: null,
  paymentDate: null,
  externalReference: null,
  attemptCount: 0,
  nextRetryAt: null,
  failureCode: null,
  failureReason: null,
  amountDue: null,
  fine: null,
  interest: null,
  discounts: [],
  // A card series issues no pix or boleto ahead.
  issued: [],
} as const;

/** Its cycles, transactions and timeline, as its detail shows them. */
export const lessonsDetail = {
  cycles: [
    {
      ...cycle,
      cycleId: `${seriesId}_c1`,
      cycleNumber: 1,
      dueDate: '2026-11-29',
      amount: 49.9,
      status: 'paid',
      payUrl: payUrl('GVaEdLJkyQ4LKvsJQS9uYWLajHSc7ili'),
      paidAt: '2026-11-28T17:09:34.904Z',
      paidBy: 'transaction',
      paymentDate: '2026-11-28',
      attemptCount: 1,
    },
    {
      ...cycle,
      cycleId: `${seriesId}_c2`,
      cycleNumber: 2,
      dueDate: '2026-12-29',
      amount: 54.9,
      amountDue: 54.9,
      status: 'overdue',
      payUrl: payUrl('TEg9oyUKvndkr8OT2QdmvIhBYfcy27Wj'),
      attemptCount: 1,
      nextRetryAt: '2027-01-01T03:00:00.034Z',
      failureCode: 'insufficient_funds',
      failureReason: 'The card has insufficient funds.',
    },
    {
      ...cycle,
      cycleId: `${seriesId}_c3`,
      cycleNumber: 3,
      dueDate: '2027-01-29',
      amount: 54.9,
      amountDue: 54.9,
      status: 'scheduled',
      payUrl: payUrl('XGcCkMQ2wWnkJCh7ElTtwpSvbznL2t1W'),
    },
  ],
  transactions: [
    {
      ...cardSale,
      id: 20,
      uuid: '572964ae-771b-45fc-b3b2-be56bd3cf14e',
      gatewayPayId: 488321169687427,
      valueSeller: 47.52,
      installments: 1,
      date: '2026-11-28T17:09:34.892Z',
      customer: { ...saleCustomer, phone: '' },
      metadata: {},
      paidAt: '2026-11-28T17:09:34.892Z',
      createdAt: '2026-11-28T17:09:34.892Z',
      updatedAt: '2026-11-28T17:09:34.892Z',
    },
  ],
  timeline: [
    {
      id: 8,
      kind: 'overdue',
      cycleNumber: 2,
      data: { dueDate: '2026-12-29' },
      createdAt: '2026-12-30T03:00:00.002Z',
    },
    {
      id: 7,
      kind: 'payment_failed',
      cycleNumber: 2,
      data: {
        attemptNumber: 1,
        source: 'silent_charge',
        failureCode: 'insufficient_funds',
        failureReason: 'The card has insufficient funds.',
        gatewayFailureCode: 'sandbox_insufficient_funds',
        nextRetryAt: '2027-01-01T03:00:00.034Z',
      },
      createdAt: '2026-12-29T03:00:00.034Z',
    },
    {
      id: 6,
      kind: 'due_today',
      cycleNumber: 2,
      data: { dueDate: '2026-12-29' },
      createdAt: '2026-12-29T03:00:00.004Z',
    },
    {
      id: 5,
      kind: 'payment_method_attached',
      cycleNumber: 1,
      data: { paymentMethodId: 1, cardBrand: 'visa', cardLast4: '1111' },
      createdAt: '2026-11-28T17:09:34.905Z',
    },
    {
      id: 4,
      kind: 'paid',
      cycleNumber: 1,
      data: { transactionId: 20 },
      createdAt: '2026-11-28T17:09:34.905Z',
    },
    {
      id: 3,
      kind: 'updated',
      cycleNumber: null,
      data: {
        amount: { from: 49.9, to: 54.9 },
        description: { from: 'Aulas particulares', to: 'Aulas particulares (2027)' },
      },
      createdAt: '2026-11-28T17:09:34.847Z',
    },
    {
      id: 2,
      kind: 'reminder_sent',
      cycleNumber: 1,
      data: { stage: 'before_3', to: 'financeiro@example.com' },
      createdAt: '2026-11-28T17:09:34.608Z',
    },
    {
      id: 1,
      kind: 'created',
      cycleNumber: null,
      data: { amount: 49.9, dueDate: '2026-11-29' },
      createdAt: '2026-11-28T17:09:34.547Z',
    },
  ],
} as const;

/** Maria's monthly subscription (price 1, R$ 29,90), started by a checkout session paid by card. */
export const subscription = {
  id: 1,
  uuid: 'cc8afb53-c733-4c89-92ca-0de38f1ff9c3',
  object: 'subscription',
  customerId: 1,
  subscriptionPriceId: 1,
  sellerId: 2,
  paymentMethodId: 1,
  status: 'active',
  collectionMethod: 'card',
  currentPeriodStart: '2026-11-28T17:09:31.620Z',
  currentPeriodEnd: '2026-12-28T17:09:31.620Z',
  billingCycle: 1,
  trialEndsAt: null,
  cancelAt: null,
  cancelledAt: null,
  cancelAtPeriodEnd: false,
  cancelReason: null,
  pauseCollection: null,
  lastPaymentAt: '2026-11-28T17:09:31.620Z',
  nextPaymentAt: '2026-12-28T17:09:31.620Z',
  failedPaymentCount: 0,
  checkoutSessionId: `cs_test_8XnTzOCkGqtqLH1ADM64SI6K${productUuid.replaceAll('-', '')}`,
  metadata: {},
  environment: 'test',
  createdAt: '2026-11-28T17:09:31.729Z',
  updatedAt: '2026-11-28T17:09:31.729Z',
  subscriptionPrice: {
    id: 1,
    uuid: '5c678613-f380-4331-ae10-e6ba17564699',
    name: 'Mensal',
    unitAmount: 29.9,
    billingInterval: 'month',
    intervalCount: 1,
    product: { id: 1, name: 'Curso de Violão' },
  },
  customer: { id: 1, name: 'Maria Souza', email: 'maria@example.com' },
  paymentMethod: { id: 1, cardBrand: 'visa', cardLast4: '1111' },
} as const;

/** The subscription's history, newest first: created, activated, its first payment. */
export const subscriptionHistory = [
  {
    id: 3,
    subscriptionId: 1,
    eventType: 'payment_success',
    eventData: { amount: 29.9, transactionId: 15, paidAt: '2026-11-28T17:09:31.620Z', billingCycle: 1 },
    createdAt: '2026-11-28T17:09:31.729Z',
  },
  {
    id: 2,
    subscriptionId: 1,
    eventType: 'subscription.activated',
    eventData: {},
    createdAt: '2026-11-28T17:09:31.729Z',
  },
  {
    id: 1,
    subscriptionId: 1,
    eventType: 'subscription.created',
    eventData: { priceId: 1, trialDays: 0 },
    createdAt: '2026-11-28T17:09:31.729Z',
  },
] as const;
