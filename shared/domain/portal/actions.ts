import { type CardClient, type CardGuardDeps, guardCardAttempt } from '#shared/domain/card-testing/guard';
import type { CustomerProfile } from '#shared/domain/customers/customer';
import { billingEmailOf } from '#shared/domain/customers/customer';
import { type CustomerDeps, updateProfile } from '#shared/domain/customers/customers';
import type { Deps } from '#shared/domain/deps';
import {
  type CancellationData,
  type PaymentMethodUpdatedData,
  paymentMethodUpdated,
  type RenderedMail,
  subscriptionCancellation,
} from '#shared/domain/mail/templates';
import { scheduleNextExpiryStep } from '#shared/domain/payment-methods/expiry';
import {
  CARD_ALREADY_SAVED,
  CUSTOMER_NOT_FOUND,
  type PaymentMethod,
} from '#shared/domain/payment-methods/payment-method';
import { newCardRecord, type SaveCardDeps, saveCardRecord } from '#shared/domain/payment-methods/save-card';
import { buyerFailure, luhnValid } from '#shared/domain/payments/cards';
import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { providerReady } from '#shared/domain/payments/provider-ready';
import { cancel, pause, reactivate, resume, switchCard } from '#shared/domain/subscriptions/actions';
import { findSubscription, subscriptionEvents } from '#shared/domain/subscriptions/queries';
import type { Subscription, SubscriptionView } from '#shared/domain/subscriptions/subscription';
import { buyerIpOf, holderContactOf } from '#shared/domain/transactions/card-holder';
import {
  BadRequestError,
  isConflict,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '#shared/errors';
import {
  type PortalConfig,
  type PortalReadDeps,
  portalConfigOf,
  requireFlag,
  sessionProfile,
  subscriptionConfigOf,
  toPortalCustomer,
  toPortalSubscription,
} from './portal';
import type { PortalAddCardInput, PortalCancelInput, PortalCustomerInfoInput } from './schemas';
import type { PortalSession } from './session';

type ActionDeps = Parameters<typeof cancel>[0];

/**
 * What the portal's actions need: the subscription actions' own deps (called on
 * the session customer's subscription), the vault and the provider's tokenizer for a new card, the
 * customers use case for billing data, and the mailer for the two e-mails.
 */
export type PortalActionDeps = ActionDeps &
  PortalReadDeps &
  SaveCardDeps &
  CustomerDeps &
  /** `reporter`: a message that could not be sent never fails the action. */
  Pick<Deps, 'mailer' | 'reporter'> & {
    /** The IP address of the request, when it is the buyer's (a card payment's `remoteIp`). */
    buyerIp?: string;
  };

const by = 'customer' as const;

/**
 * The session customer's subscription `id`: another customer's is a 404, before any 403. What the
 * customer may do with it is then its own product's configuration's to say (subscriptionConfigOf),
 * whatever the session's.
 */
const subscriptionOf = (deps: PortalActionDeps, session: PortalSession, id: number) =>
  findSubscription(deps, session.tenant, id, { customerId: session.customer.id });

/**
 * Sends one portal e-mail to the customer's billing address (the seller's override, else the
 * profile's e-mail), kept in the sandbox mailbox for a test tenant. Any failure (no profile, the
 * mailer) is reported, never thrown: the action it follows has already happened.
 */
async function sendPortalMail(
  deps: PortalActionDeps,
  session: PortalSession,
  kind: string,
  render: (customerName: string) => RenderedMail,
  profile: CustomerProfile | null,
): Promise<void> {
  try {
    if (!profile) throw new NotFoundError(CUSTOMER_NOT_FOUND);
    await deps.mailer.send({
      to: billingEmailOf(profile),
      ...render(profile.name),
      tenant: session.tenant,
      kind,
    });
  } catch (error) {
    deps.reporter.error('could not send a portal e-mail', error, { kind });
  }
}

const mailSubjectOf = (view: SubscriptionView, config: PortalConfig) => ({
  productName: view.subscriptionPrice.product.name,
  planName: view.subscriptionPrice.name,
  businessName: config.businessName,
  sandbox: view.environment === 'test',
});

/**
 * POST /api/portal/subscriptions/{id}/cancel. `cancelAtPeriodEndOnly` turns every cancellation into
 * one at the period's end (whatever the body asks); `requireCancelReason` makes `reason` required.
 * The customer gets the cancellation e-mail when `sendCancellationEmail` is on.
 */
export async function portalCancel(
  deps: PortalActionDeps,
  session: PortalSession,
  id: number,
  input: PortalCancelInput,
) {
  const [current, profile] = await Promise.all([
    subscriptionOf(deps, session, id),
    sessionProfile(deps, session),
  ]);
  const config = await subscriptionConfigOf(deps, current);
  requireFlag(config, 'allowCancelSubscription');
  if (config.requireCancelReason && !input.reason) throw new ValidationError(['reason is required']);
  const atPeriodEnd = config.cancelAtPeriodEndOnly || (input.atPeriodEnd ?? false);
  const view = await cancel(deps, current, { atPeriodEnd, reason: input.reason, by });
  if (config.sendCancellationEmail) {
    const data: Omit<CancellationData, 'customerName'> = {
      ...mailSubjectOf(view, config),
      atPeriodEnd: view.status === 'pending_cancellation',
      endsAt: new Date(view.cancelAt ?? view.cancelledAt ?? view.updatedAt),
      customMessage: config.customCancellationMessage,
    };
    await sendPortalMail(
      deps,
      session,
      'subscription_cancellation',
      (customerName) => subscriptionCancellation({ ...data, customerName }),
      profile,
    );
  }
  return toPortalSubscription(view, config);
}

/** Pause, resume and reactivate: allowed by `allowCancelSubscription` (spec: it governs pause and resume). */
async function stateAction(deps: PortalActionDeps, session: PortalSession, id: number, action: typeof pause) {
  const current = await subscriptionOf(deps, session, id);
  const config = await subscriptionConfigOf(deps, current);
  requireFlag(config, 'allowCancelSubscription');
  return toPortalSubscription(await action(deps, current, { by }), config);
}

export const portalPause = (deps: PortalActionDeps, session: PortalSession, id: number) =>
  stateAction(deps, session, id, pause);
export const portalResume = (deps: PortalActionDeps, session: PortalSession, id: number) =>
  stateAction(deps, session, id, resume);
/** Reactivating undoes a cancellation, so the flag that allows cancelling allows it (decisions). */
export const portalReactivate = (deps: PortalActionDeps, session: PortalSession, id: number) =>
  stateAction(deps, session, id, reactivate);

/** Switches the subscription to the card, then sends the e-mail when `sendPaymentMethodUpdatedEmail` is on. */
async function changeCard(
  deps: PortalActionDeps,
  session: PortalSession,
  config: PortalConfig,
  current: Subscription,
  card: { card: PaymentMethod | null; cardIsNew?: boolean },
  profile: CustomerProfile | null,
) {
  const view = await switchCard(deps, current, card.card, { cardIsNew: card.cardIsNew });
  const saved = view.paymentMethod;
  if (config.sendPaymentMethodUpdatedEmail && saved) {
    const data: Omit<PaymentMethodUpdatedData, 'customerName'> = {
      ...mailSubjectOf(view, config),
      card: { brand: saved.cardBrand, last4: saved.cardLast4 },
    };
    await sendPortalMail(
      deps,
      session,
      'payment_method_updated',
      (customerName) => paymentMethodUpdated({ ...data, customerName }),
      profile,
    );
  }
  return toPortalSubscription(view, config);
}

/**
 * POST /api/portal/subscriptions/{id}/update-payment-method: one of the customer's saved cards
 * (another customer's, or another seller's, is 404 `Payment method not found`).
 */
export async function portalUpdatePaymentMethod(
  deps: PortalActionDeps,
  session: PortalSession,
  id: number,
  input: { paymentMethodId: number },
) {
  const [current, card, profile] = await Promise.all([
    subscriptionOf(deps, session, id),
    deps.paymentMethods.get(session.tenant, input.paymentMethodId),
    sessionProfile(deps, session),
  ]);
  const config = await subscriptionConfigOf(deps, current);
  requireFlag(config, 'allowUpdatePaymentMethod');
  return changeCard(deps, session, config, current, { card }, profile);
}

/**
 * POST /api/portal/subscriptions/{id}/add-card-and-update: the card goes to the provider's
 * tokenizer (verified, not charged), is kept in the vault as the customer's payment method, and
 * the subscription switches to it. The number and CVV are never stored, logged or answered. A
 * declined card is a 400 whose message the page shows as is (Portuguese), `card_declined` whatever
 * the issuer said (a technical failure is `processing_error`); nothing is saved then.
 */
export async function portalAddCardAndUpdate(
  deps: PortalActionDeps & CardGuardDeps,
  session: PortalSession,
  id: number,
  input: PortalAddCardInput,
  client: CardClient,
) {
  // The subscription is the customer's before any card reaches the provider.
  const [current, customer] = await Promise.all([
    subscriptionOf(deps, session, id),
    sessionProfile(deps, session),
  ]);
  const config = await subscriptionConfigOf(deps, current);
  requireFlag(config, 'allowUpdatePaymentMethod');
  if (!luhnValid(input.cardNumber)) throw new ValidationError(['cardNumber is not a valid card number']);
  const provider = deps.payments.forEnvironment(session.tenant.environment);
  if (!(await providerReady(provider, session.tenant)))
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  if (!customer) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  const typed = {
    number: input.cardNumber,
    holderName: input.holderName,
    expiryMonth: input.expiryMonth,
    expiryYear: input.expiryYear,
    cvv: input.cvv,
  };
  // A card form in a browser like the checkout's: guarded against card testing the same way.
  const result = await guardCardAttempt(
    deps,
    { tenant: session.tenant, on: { scope: 'portal', id: session.id }, card: typed, client },
    () =>
      provider.tokenizeCard({
        tenant: session.tenant,
        customer: {
          name: customer.name,
          document: customer.document,
          email: billingEmailOf(customer),
          ...holderContactOf(customer),
          ...buyerIpOf(deps),
        },
        card: typed,
      }),
    (tokenized) => tokenized.outcome === 'declined',
  );
  if (result.outcome !== 'approved') {
    const failure = buyerFailure(result.failureCode);
    throw new BadRequestError(failure.message, failure.code);
  }
  const save = {
    tenant: session.tenant,
    customer: { ...session.customer, testClockId: customer.testClockId ?? null },
    provider: provider.provider,
    savedCard: result.savedCard,
  };
  // The card and the subscription's switch to it are one write.
  const card = await newCardRecord(deps, save);
  try {
    const answer = await changeCard(deps, session, config, current, { card, cardIsNew: true }, customer);
    await scheduleNextExpiryStep(deps, card);
    return answer;
  } catch (error) {
    if (!isConflict(error, 'already_exists') || error.code !== CARD_ALREADY_SAVED) throw error;
  }
  // The customer has this card saved already: saveCard answers the kept one (and forgets the new token).
  const kept = await saveCardRecord(deps, save);
  return changeCard(deps, session, config, current, { card: kept }, customer);
}

/** GET /api/portal/subscriptions/{id}/events: the subscription's history, when `allowViewInvoices` is on. */
export async function portalEvents(deps: PortalActionDeps, session: PortalSession, id: number) {
  const current = await subscriptionOf(deps, session, id);
  const config = await subscriptionConfigOf(deps, current);
  requireFlag(config, 'allowViewInvoices');
  return subscriptionEvents(deps, current);
}

/**
 * PUT /api/portal/customer-info: the customer changes the seller's profile of them (name, e-mail,
 * phone) through the customers use case, when `allowUpdateBillingInfo` is on. The document and the
 * seller's billing e-mail override stay as they are; a new e-mail is the buyer's, never a
 * seller-registered one (docs/decisions.md, "Customer identity").
 */
export async function portalUpdateCustomerInfo(
  deps: PortalActionDeps,
  session: PortalSession,
  input: PortalCustomerInfoInput,
) {
  const [config, profile] = await Promise.all([portalConfigOf(deps, session), sessionProfile(deps, session)]);
  requireFlag(config, 'allowUpdateBillingInfo');
  if (!profile) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  // The subscriber types it: the seller's reminders follow it, the customer area does not (`buyer`).
  return toPortalCustomer(await updateProfile(deps, profile, input, 'buyer'));
}
