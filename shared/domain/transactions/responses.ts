import * as z from 'zod';
import { transactionAffiliateResponse } from '#shared/domain/affiliates/index';
import { amountDueField, lateChargeTermsFields } from '#shared/domain/payments/late-charge-responses';
import type { Assert, Equals, Extends } from '#shared/domain/type-assert';
import { webhookDeliveryResponse } from '#shared/domain/webhooks/responses';
import type { listTransactions, refundTransaction } from './manage';
import type { handleNotification } from './notifications';
import type { transactionTimeline } from './timeline';
import { STATUSES, type TransactionStatus, type toTransactionView } from './transaction';

const reais = (what: string) => z.number().describe(`${what}, in Reais (decimal, e.g. 49.9)`);
const iso = () => z.iso.datetime();

export const transactionStatusResponse = z.lazy(() =>
  z.enum(STATUSES).meta({
    id: 'TransactionStatus',
    description: 'Where a transaction is in its life (paid: captured, payedBoleto, payedPix)',
  }),
);

export const transactionPixResponse = z.lazy(() =>
  z
    .object({
      qrCode: z.string().describe('The BR Code (pix copia e cola)'),
      txid: z.string(),
      expiresAt: iso(),
      authorizationId: z
        .string()
        .optional()
        .describe('The Pix Automático authorization this first payment consents to (subscriptions)'),
    })
    .meta({ id: 'TransactionPix', description: 'The pix charge of a pix transaction' }),
);

export const transactionBoletoResponse = z.lazy(() =>
  z
    .object({
      barcode: z.string().describe('44 digits'),
      digitableLine: z.string().describe('47 digits'),
      formattedLine: z.string().describe('The digitable line with its dots and spaces'),
      dueDate: z.iso.date(),
      pdfUrl: z.string(),
      pixQrCode: z
        .string()
        .nullable()
        .describe(
          'The boleto híbrido: a pix BR Code (copia e cola, a dynamic `cobv` with the due date) for the same charge; paying either settles it. Null when the provider issued none',
        ),
    })
    .meta({ id: 'TransactionBoleto', description: 'The boleto of a boleto transaction' }),
);

export const transactionCardResponse = z.lazy(() =>
  z
    .object({ brand: z.string(), last4: z.string() })
    .meta({ id: 'TransactionCard', description: 'The card of a card transaction (never its number)' }),
);

export const transactionRefundResponse = z.lazy(() =>
  z
    .object({
      id: z.string(),
      amount: reais('Refunded amount'),
      reason: z.string().nullable(),
      createdAt: iso(),
    })
    .meta({ id: 'TransactionRefund', description: 'One refund, total or partial' }),
);

const transactionChargebackResponse = z.lazy(() =>
  z
    .object({
      status: z
        .enum(['open', 'won'])
        .describe('open: the sale stands reversed; won: the dispute was won and the sale restored'),
      openedAt: iso(),
      closedAt: iso().nullable().describe('When the dispute was won; null while open'),
    })
    .meta({ id: 'TransactionChargeback', description: "The transaction's chargeback, if it had one" }),
);

/**
 * Every route that answers one transaction: create (201), read, refund, and the sandbox's
 * pay/fail/chargeback helpers.
 */
export const transactionResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      uuid: z.string(),
      gatewayPayId: z.number().int().describe("The payment provider's id"),
      status: transactionStatusResponse,
      value: reais('Amount charged'),
      valueSeller: reais("The seller's net after the fee"),
      refundedAmount: reais('Refunded so far'),
      paymentMethod: z.enum(['pix', 'boleto', 'creditcard']),
      installments: z.number().int().nullable().describe('Card payments only; null otherwise'),
      date: iso().describe('When the transaction was created (the same as createdAt)'),
      deadline: z
        .union([iso(), z.iso.date()])
        .nullable()
        .describe('Pix: when the charge expires; boleto: its due date; card: null'),
      customer: z.object({
        id: z.number().int(),
        name: z.string(),
        email: z.string(),
        document: z.string().describe('CPF or CNPJ, digits only'),
        phone: z.string(),
      }),
      product: z.object({
        id: z.number().int(),
        name: z.string(),
        value: reais('Price at the time of the sale'),
        uuid: z.string(),
      }),
      isRecurring: z.boolean().describe('True for a charge of a subscription'),
      subscriptionId: z.number().int().nullable().describe('The subscription this charge belongs to'),
      billingCycle: z.number().int().nullable().describe('The billing cycle it pays (1 = first period)'),
      pix: transactionPixResponse.nullable(),
      boleto: transactionBoletoResponse.nullable(),
      card: transactionCardResponse.nullable(),
      failureCode: z.string().nullable(),
      failureReason: z.string().nullable(),
      refunds: z.array(transactionRefundResponse),
      paidAt: z.iso.datetime().nullable(),
      canceledAt: z.iso.datetime().nullable(),
      environment: z.enum(['test', 'live']),
      metadata: z.record(z.string(), z.string()),
      checkoutSessionId: z.string().nullable().describe('The checkout session of the sale (cs_…), if any'),
      clientReferenceId: z.string().nullable().describe("The checkout session's client_reference_id"),
      affiliate: transactionAffiliateResponse.nullable(),
      chargeback: transactionChargebackResponse.nullable(),
      ...lateChargeTermsFields(),
      amountDue: amountDueField(),
      paidAmount: reais('What the payment cleared (face value + fine + interest - discount)')
        .nullable()
        .describe('Null until paid'),
      paidWith: z
        .enum(['pix', 'boleto', 'creditcard'])
        .nullable()
        .describe('How it was paid (a boleto paid by its pix: `pix`, status payedBoleto); null until paid'),
      fineAmount: reais('The fine within paidAmount').nullable(),
      interestAmount: reais('The interest within paidAmount').nullable(),
      discountAmount: reais('The early-payment discount taken off paidAmount').nullable(),
      createdAt: iso(),
      updatedAt: iso(),
    })
    .meta({ id: 'Transaction', description: 'A sale of a product by pix, boleto or card' }),
);

/** GET /api/transactions: numbered pages, newest first. */
export const transactionListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(transactionResponse),
      count: z.number().int().describe('Transactions on this page'),
      page: z.number().int().nullable().describe('The page asked; null on cursor pages'),
      totalPages: z.number().int().nullable().describe('null on cursor pages (they count nothing)'),
      nextCursor: z
        .string()
        .nullable()
        .describe('Pass as `cursor` for the next page; null on the last (a page may be short)'),
    })
    .meta({ id: 'TransactionList', description: 'A page of transactions' }),
);

/** GET /api/transactions/{id}/timeline: the provider's ids, status changes, events and their deliveries. */
export const transactionTimelineResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      provider: z.object({
        name: z.string().describe('The payment provider that processed it (sandbox, asaas)'),
        gatewayPayId: z.number().int(),
        pixTxid: z.string().nullable(),
        boletoBarcode: z.string().nullable(),
      }),
      statusChanges: z
        .array(
          z.object({
            step: z.enum([
              'created',
              'paid',
              'failed',
              'refunded',
              'canceled',
              'chargeback_opened',
              'chargeback_won',
            ]),
            at: iso(),
            amount: z.number().nullable().describe('In Reais: the sale on created, the refund on refunded'),
            detail: z.string().nullable().describe("A refund's reason, a failure's reason"),
          }),
        )
        .describe('Oldest first, from the transaction itself (kept for ever)'),
      events: z
        .array(
          z.object({
            id: z.string(),
            event: z.string(),
            timestamp: iso(),
            deliveries: z.array(webhookDeliveryResponse),
          }),
        )
        .describe('Its events of the last 30 days, oldest first, each with its webhook deliveries'),
    })
    .meta({ id: 'TransactionTimeline', description: 'What happened to a transaction' }),
);

/** GET /api/v1/charges: cursor pages, newest first, without a total. */
export const chargeListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(transactionResponse),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
      hasMore: z.boolean(),
    })
    .meta({ id: 'ChargeList', description: 'A page of charges' }),
);

/** POST /api/transactions/handle-webhook (201): what the notification did. */
export const notificationResultResponse = z.lazy(() =>
  z
    .union([
      z.object({
        received: z.boolean().describe('Always true'),
        applied: z.boolean().describe('Always false: the notification does not fit the current status'),
        transactionId: z.number().int(),
        status: transactionStatusResponse,
        reason: z.string(),
      }),
      z.object({
        received: z.boolean().describe('Always true'),
        applied: z.boolean(),
        duplicate: z.boolean().describe('This notification id was applied before'),
        transactionId: z.number().int(),
        status: transactionStatusResponse,
      }),
    ])
    .meta({ id: 'NotificationResult', description: "A provider notification's outcome" }),
);

/** DELETE /api/transactions/{id} (panel): a bare `true`. */
export const transactionCanceledResponse = z.lazy(() =>
  z.literal(true).meta({ id: 'TransactionCanceled', description: 'The transaction was canceled' }),
);

/** DELETE /api/v1/charges/{uuid}. */
export const chargeCanceledResponse = z.lazy(() =>
  z
    .object({ canceled: z.boolean().describe('Always true') })
    .meta({ id: 'ChargeCanceled', description: 'The charge was canceled' }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

type _Status = Assert<Equals<z.output<typeof transactionStatusResponse>, TransactionStatus>>;
type _View = Assert<Equals<z.output<typeof transactionResponse>, ReturnType<typeof toTransactionView>>>;
type _Refund = Assert<Equals<z.output<typeof transactionResponse>, Out<typeof refundTransaction>>>;
type _Timeline = Assert<
  Equals<z.output<typeof transactionTimelineResponse>, Out<typeof transactionTimeline>>
>;
type _List = Assert<Equals<z.output<typeof transactionListResponse>, Out<typeof listTransactions>>>;
// The two outcomes' inferred union marks each one's missing field `?: undefined`: checked both ways.
type _Notification = Assert<
  Extends<Out<typeof handleNotification>, z.input<typeof notificationResultResponse>>
>;
type _NotificationBack = Assert<
  Extends<z.output<typeof notificationResultResponse>, Out<typeof handleNotification>>
>;
