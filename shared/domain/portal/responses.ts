import * as z from 'zod';
import { paymentMethodResponse } from '#shared/domain/payment-methods/responses';
import { effectivePortalConfigResponse } from '#shared/domain/products/responses';
import type { listSubscriptionEvents } from '#shared/domain/subscriptions/queries';
import { subscriptionResponse } from '#shared/domain/subscriptions/responses';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { portalAddCardAndUpdate, portalCancel, portalEvents, portalUpdateCustomerInfo } from './actions';
import type { getPortal } from './portal';
import type { createPortalSession } from './sessions';

/** POST /api/portal/sessions: the spec's Portal session. */
export const portalSessionResponse = z.lazy(() =>
  z
    .object({
      sessionId: z.number().int(),
      token: z.string().describe('Secret, shown once: `pt_` and 43 base62 characters; valid for 1 hour'),
      expiresAt: z.iso.datetime().describe('1 hour after creation'),
      portalUrl: z.string().describe("`{base}/portal?token=…`: open it in the customer's browser"),
    })
    .meta({ id: 'PortalSession', description: 'A customer portal session (its token is shown only here)' }),
);

/** The customer as the portal shows and edits it. */
export const portalCustomerResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      uuid: z.string(),
      name: z.string(),
      email: z.string(),
      phone: z.string(),
      document: z.string().describe('CPF or CNPJ, digits only'),
    })
    .meta({ id: 'PortalCustomer', description: "The customer's billing data as the seller keeps it" }),
);

/**
 * A subscription with what the customer may do with it now: its own product's configuration
 * flags and its state.
 */
export const portalSubscriptionResponse = z.lazy(() =>
  subscriptionResponse
    .unwrap()
    .extend({
      actions: z
        .object({
          cancel: z.boolean(),
          pause: z.boolean(),
          resume: z.boolean(),
          reactivate: z.boolean(),
          updatePaymentMethod: z.boolean(),
          viewInvoices: z.boolean().describe('The history (GET …/events) may be read'),
        })
        .describe(
          "The portal actions allowed on this subscription now (its product's configuration flags and its state)",
        ),
      cancelRules: z
        .object({
          atPeriodEndOnly: z.boolean().describe('Every cancellation is one at the period end'),
          reasonRequired: z.boolean().describe('A cancellation needs a reason'),
        })
        .describe("How a cancellation goes, by the subscription's product's configuration"),
    })
    .meta({ id: 'PortalSubscription', description: 'A subscription as the customer portal shows it' }),
);

/** GET /api/portal: everything the hosted portal page shows. */
export const portalResponse = z.lazy(() =>
  z
    .object({
      sessionId: z.number().int(),
      expiresAt: z.iso.datetime(),
      returnUrl: z
        .string()
        .nullable()
        .describe("Where the page's return link goes (the session's returnUrl)"),
      customer: portalCustomerResponse,
      configuration: effectivePortalConfigResponse,
      subscriptions: z
        .array(portalSubscriptionResponse)
        .describe("The customer's subscriptions, newest first"),
      paymentMethods: z
        .array(paymentMethodResponse)
        .describe("The customer's active saved cards, newest first: the choices of a card change"),
    })
    .meta({
      id: 'Portal',
      description: "A portal session's customer, configuration, subscriptions and cards",
    }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

type _Session = Assert<Equals<z.output<typeof portalSessionResponse>, Out<typeof createPortalSession>>>;
type _Portal = Assert<Equals<z.output<typeof portalResponse>, Out<typeof getPortal>>>;
type _Subscription = Assert<Equals<z.output<typeof portalSubscriptionResponse>, Out<typeof portalCancel>>>;
type _Card = Assert<Equals<z.output<typeof portalSubscriptionResponse>, Out<typeof portalAddCardAndUpdate>>>;
type _Customer = Assert<
  Equals<z.output<typeof portalCustomerResponse>, Out<typeof portalUpdateCustomerInfo>>
>;
type _Events = Assert<Equals<Out<typeof portalEvents>, Out<typeof listSubscriptionEvents>>>;
