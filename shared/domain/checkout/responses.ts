import * as z from 'zod';
import { BILLING_INTERVALS } from '#shared/domain/subscriptions/price';
import { SUBSCRIPTION_STATUSES } from '#shared/domain/subscriptions/subscription';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { PaymentOutcome } from './outcome';
import type { CheckoutView } from './public';
import type { SessionView } from './session';
import type { listSessions } from './sessions';

const iso = () => z.iso.datetime();
const methods = () => z.array(z.enum(['pix', 'boleto', 'card']));
const text = () => z.string().nullable();

export const checkoutSessionResponse = z.lazy(() =>
  z
    .object({
      id: z.string().describe('cs_test_… or cs_live_…'),
      object: z.literal('checkout.session'),
      status: z.enum(['open', 'complete', 'expired']),
      url: z.string().describe('The hosted payment page of the session'),
      product_id: z.number().int(),
      price_id: text().describe('The subscription price, when the session starts a subscription'),
      customer_email: text(),
      customer_name: text(),
      customer: z
        .object({
          'customer.name': text(),
          'customer.email': text(),
          'customer.document': text(),
          'customer.phone': text(),
          'customer.zip_code': text(),
          'customer.street': text(),
          'customer.number': text(),
          'customer.complement': text(),
          'customer.neighborhood': text(),
          'customer.city': text(),
          'customer.state': text(),
        })
        .describe('The buyer data the page is prefilled with (normalized: digits only)'),
      payment_methods: methods(),
      metadata: z.record(z.string(), z.string()),
      success_url: text().describe('{SESSION_ID} is replaced by the session id on redirect'),
      cancel_url: text(),
      client_reference_id: text(),
      affiliate_id: z.number().int().nullable(),
      transaction_id: z
        .number()
        .int()
        .nullable()
        .describe('Set when the session is complete; null when it started a subscription with a trial'),
      subscription_id: z
        .number()
        .int()
        .nullable()
        .describe('The subscription a session with price_id started; set when it is complete'),
      environment: z.enum(['test', 'live']),
      expires_at: iso(),
      completed_at: iso().nullable(),
      created_at: iso(),
      updated_at: iso(),
    })
    .meta({ id: 'CheckoutSession', description: 'A programmatic payment link for one product' }),
);

export const checkoutSessionEnvelope = z.lazy(() =>
  z.object({ data: checkoutSessionResponse }).meta({ id: 'CheckoutSessionEnvelope' }),
);

export const checkoutSessionListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(checkoutSessionResponse),
      count: z.number().int(),
      totalCount: z.number().int(),
      totalPages: z.number().int(),
    })
    .meta({ id: 'CheckoutSessionList', description: 'A page of checkout sessions, newest first' }),
);

export const paymentOutcomeResponse = z.lazy(() =>
  z
    .object({
      paymentId: z
        .string()
        .nullable()
        .describe(
          'The transaction uuid; poll GET …/payments/{paymentId} while pending. Null when nothing was charged (a trial)',
        ),
      orderNumber: z
        .number()
        .int()
        .nullable()
        .describe(
          "The order number the buyer quotes (the transaction's id, as on the receipt); null when nothing was charged",
        ),
      receiptByEmail: z.boolean().describe("Paid, and the receipt goes to the buyer's e-mail"),
      status: z
        .enum(['pending', 'paid', 'declined', 'failed', 'canceled', 'trialing'])
        .describe(
          '`trialing`: the card was kept and the subscription started its trial; nothing was charged',
        ),
      method: z.enum(['pix', 'boleto', 'card']),
      value: z.number().describe('Reais'),
      installments: z.number().int(),
      pix: z
        .object({
          qrCode: z.string().describe('The BR Code (pix copia e cola)'),
          qrCodeImage: z.string().describe('An SVG data: URL of the QR code'),
          expiresAt: iso(),
        })
        .nullable(),
      boleto: z
        .object({
          digitableLine: z.string(),
          formattedLine: z.string(),
          barcode: z.string(),
          dueDate: z.iso.date(),
          pdfUrl: z.string(),
          pixQrCode: z
            .string()
            .nullable()
            .describe('The boleto híbrido: a pix BR Code for the same charge; paying either settles it'),
          pixQrCodeImage: z.string().nullable().describe('An SVG data: URL of its QR code'),
        })
        .nullable(),
      card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
      failure: z
        .object({ code: z.string(), message: z.string().describe('For the buyer, in Portuguese') })
        .nullable(),
      redirectUrl: text().describe("The session's success URL once paid"),
      subscription: z
        .object({
          status: z.enum(SUBSCRIPTION_STATUSES),
          trialEndsAt: iso().nullable(),
          nextPaymentAt: iso().nullable(),
        })
        .nullable()
        .describe(
          'The subscription the payment started (a session with a price), in the answers of pay and of the payment poll',
        ),
    })
    .meta({ id: 'CheckoutPayment', description: 'A payment made on the hosted page' }),
);

export const checkoutViewResponse = z.lazy(() =>
  z
    .object({
      kind: z.enum(['product', 'session']),
      ref: z.string(),
      state: z.enum(['open', 'complete', 'expired', 'unavailable']),
      unavailableReason: z.enum(['inactive', 'not_for_sale']).nullable(),
      environment: z.enum(['test', 'live']),
      product: z.object({
        uuid: z.string(),
        name: z.string(),
        description: text(),
        image: text(),
        value: z.number().describe('Reais'),
        methods: methods(),
        maxInstallments: z.number().int(),
      }),
      price: z
        .object({
          name: z.string(),
          unitAmount: z.number().describe('Reais, charged every intervalCount billingIntervals'),
          billingInterval: z.enum(BILLING_INTERVALS),
          intervalCount: z.number().int(),
          trialDays: z.number().int(),
        })
        .nullable()
        .describe('The subscription price a session sells; null for a one-off sale'),
      seller: z
        .object({
          name: z.string(),
          logoUrl: z.string().nullable().describe('An https URL'),
          brandColor: z.string().nullable().describe('#rrggbb'),
        })
        .describe("The seller's business profile, as the hosted page shows it"),
      customer: z.object({
        name: text(),
        email: text(),
        document: text(),
        phone: text(),
        zipCode: text(),
        street: text(),
        number: text(),
        complement: text(),
        neighborhood: text(),
        city: text(),
        state: text(),
      }),
      successUrl: text(),
      cancelUrl: text(),
      expiresAt: iso().nullable(),
      payment: paymentOutcomeResponse.nullable(),
    })
    .meta({ id: 'CheckoutPage', description: 'What the hosted payment page shows' }),
);

type _Session = Assert<Equals<z.output<typeof checkoutSessionResponse>, SessionView>>;
type _List = Assert<
  Equals<z.output<typeof checkoutSessionListResponse>, Awaited<ReturnType<typeof listSessions>>>
>;
type _Outcome = Assert<Equals<z.output<typeof paymentOutcomeResponse>, PaymentOutcome>>;
type _View = Assert<Equals<z.output<typeof checkoutViewResponse>, CheckoutView>>;
