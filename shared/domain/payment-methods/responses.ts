import * as z from 'zod';
import type { paymentMethodEventData } from '#events/catalog';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { deletePaymentMethod, listPaymentMethods } from './manage';
import { PAYMENT_METHOD_STATUSES, type PaymentMethodView } from './payment-method';

/** A saved card as the customer routes and the payment_method.* events show it (never its token). */
export const paymentMethodResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int().describe('The number subscriptions and charge attempts reference'),
      uuid: z.string(),
      type: z.literal('card'),
      customerId: z.number().int(),
      customerUuid: z.string(),
      brand: z.string().describe('visa, mastercard, amex, elo or unknown'),
      last4: z.string().describe('The last 4 digits of the card number'),
      expiryMonth: z.number().int().describe('1 to 12'),
      expiryYear: z.number().int().describe('Four digits'),
      status: z.enum(PAYMENT_METHOD_STATUSES).describe('expired once the expiry month is over'),
      expiresAt: z.iso
        .datetime()
        .describe(
          'When the card stops being valid: the start of the month after its expiry month, Sao Paulo',
        ),
      createdAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
    })
    .meta({ id: 'PaymentMethod', description: "A customer's saved card" }),
);

/** GET /api/v1/customers/{uuid}/payment-methods: every saved card of the customer, newest first. */
export const paymentMethodListResponse = z.lazy(() =>
  z
    .object({ data: z.array(paymentMethodResponse) })
    .meta({ id: 'PaymentMethodList', description: "A customer's saved cards, newest first (at most 100)" }),
);

/** DELETE /api/v1/customers/{uuid}/payment-methods/{id}. */
export const paymentMethodDeletedResponse = z.lazy(() =>
  z
    .object({ id: z.number().int(), deleted: z.literal(true) })
    .meta({ id: 'PaymentMethodDeleted', description: 'The saved card was detached and deleted' }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

type _View = Assert<Equals<z.output<typeof paymentMethodResponse>, PaymentMethodView>>;
type _Event = Assert<Equals<z.output<ReturnType<typeof paymentMethodEventData>>, PaymentMethodView>>;
type _List = Assert<Equals<z.output<typeof paymentMethodListResponse>, Out<typeof listPaymentMethods>>>;
type _Deleted = Assert<
  Equals<z.output<typeof paymentMethodDeletedResponse>, Out<typeof deletePaymentMethod>>
>;
