import { type CardClient, type CardGuardDeps, guardCardAttempt } from '#shared/domain/card-testing/guard';
import { billingEmailOf } from '#shared/domain/customers/customer';
import { type CustomerDeps, updateCustomer } from '#shared/domain/customers/customers';
import {
  type CancellationData,
  type PaymentMethodUpdatedData,
  paymentMethodUpdated,
  type RenderedMail,
  subscriptionCancellation,
} from '#shared/domain/mail/templates';
import { CARD_ALREADY_SAVED, CUSTOMER_NOT_FOUND } from '#shared/domain/payment-methods/payment-method';
import { newCardRecord, type SaveCardDeps, saveCardRecord } from '#shared/domain/payment-methods/save-card';
import { scheduleNextExpiryStep } from '#shared/domain/payment-methods/schedule';
import { buyerFailure, luhnValid } from '#shared/domain/payments/cards';
import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { providerReady } from '#shared/domain/payments/provider-ready';
import type { Mailer } from '#shared/domain/ports';
import {
  cancelSubscription,
  changeSubscriptionPaymentMethod,
  pauseSubscription,
  reactivateSubscription,
  resumeSubscription,
} from '#shared/domain/subscriptions/actions';
import { listSubscriptionEvents } from '#shared/domain/subscriptions/queries';
import { type SubscriptionView, toSubscriptionView } from '#shared/domain/subscriptions/subscription';
import { buyerIpOf, holderContactOf } from '#shared/domain/transactions/card-holder';
import {
  BadRequestError,
  isConflict,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '#shared/errors';
import { type Profile, startReads, withSubscription } from './action-reads';
import {
  type PortalConfig,
  type PortalReadDeps,
  requireFlag,
  toPortalCustomer,
  toPortalSubscription,
} from './portal';
import { early, knowing } from './prefetch';
import type { PortalAddCardInput, PortalCancelInput, PortalCustomerInfoInput } from './schemas';
import type { PortalSession } from './session';

type ActionDeps = Parameters<typeof cancelSubscription>[0];

/**
 * What the portal's actions need: the subscription actions' own deps (H2b's use cases, called with
 * the session's customer as scope), the vault and the provider's tokenizer for a new card, the
 * customers use case for billing data, and the mailer for the two e-mails.
 */
export type PortalActionDeps = ActionDeps &
  PortalReadDeps &
  SaveCardDeps &
  CustomerDeps & {
    mailer: Mailer;
    /** A message that could not be sent never fails the action: it is reported here. */
    onMailError?: (error: unknown, kind: string) => void;
    /** The IP address of the request, when it is the buyer's (a card payment's `remoteIp`). */
    buyerIp?: string;
  };

/** The customer's scope for the subscription use cases: another customer's subscription is a 404. */
const scopeOf = (session: PortalSession) => ({ by: 'customer' as const, customerId: session.customer.id });

/**
 * Sends one portal e-mail to the customer's billing address (the seller's override, else the
 * profile's e-mail), kept in the sandbox mailbox for a test tenant. Any failure (the profile read,
 * the mailer) is reported, never thrown: the action it follows has already happened.
 */
async function sendPortalMail(
  deps: PortalActionDeps,
  session: PortalSession,
  kind: string,
  render: (customerName: string) => RenderedMail,
  readProfile: Profile,
): Promise<void> {
  try {
    const profile = await readProfile();
    if (!profile) throw new NotFoundError(CUSTOMER_NOT_FOUND);
    await deps.mailer.send({
      to: billingEmailOf(profile),
      ...render(profile.name),
      tenant: session.tenant,
      kind,
    });
  } catch (error) {
    deps.onMailError?.(error, kind);
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
  const reads = startReads(deps, session, id, true);
  const config = await reads.config;
  requireFlag(config, 'allowCancelSubscription');
  if (config.requireCancelReason && !input.reason) throw new ValidationError(['reason is required']);
  const atPeriodEnd = config.cancelAtPeriodEndOnly || (input.atPeriodEnd ?? false);
  const current = await reads.subscription();
  const view = await cancelSubscription(withSubscription(deps, current), session.tenant, id, {
    atPeriodEnd,
    reason: input.reason,
    ...scopeOf(session),
  });
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
      reads.profile,
    );
  }
  return toPortalSubscription(view, config);
}

/** Pause, resume and reactivate: allowed by `allowCancelSubscription` (spec: it governs pause and resume). */
async function stateAction(
  deps: PortalActionDeps,
  session: PortalSession,
  id: number,
  action: typeof pauseSubscription,
) {
  const reads = startReads(deps, session, id, false);
  const config = await reads.config;
  requireFlag(config, 'allowCancelSubscription');
  const current = await reads.subscription();
  return toPortalSubscription(
    await action(withSubscription(deps, current), session.tenant, id, scopeOf(session)),
    config,
  );
}

export const portalPause = (deps: PortalActionDeps, session: PortalSession, id: number) =>
  stateAction(deps, session, id, pauseSubscription);
export const portalResume = (deps: PortalActionDeps, session: PortalSession, id: number) =>
  stateAction(deps, session, id, resumeSubscription);
/** Reactivating undoes a cancellation, so the flag that allows cancelling allows it (decisions). */
export const portalReactivate = (deps: PortalActionDeps, session: PortalSession, id: number) =>
  stateAction(deps, session, id, reactivateSubscription);

/** Switches the subscription to the card, then sends the e-mail when `sendPaymentMethodUpdatedEmail` is on. */
async function changeCard(
  deps: PortalActionDeps,
  session: PortalSession,
  config: PortalConfig,
  id: number,
  paymentMethodId: number,
  readProfile: Profile,
  preread?: Parameters<typeof changeSubscriptionPaymentMethod>[4],
) {
  const view = await changeSubscriptionPaymentMethod(
    deps,
    session.tenant,
    id,
    { paymentMethodId, ...scopeOf(session) },
    preread,
  );
  const card = view.paymentMethod;
  if (config.sendPaymentMethodUpdatedEmail && card) {
    const data: Omit<PaymentMethodUpdatedData, 'customerName'> = {
      ...mailSubjectOf(view, config),
      card: { brand: card.cardBrand, last4: card.cardLast4 },
    };
    await sendPortalMail(
      deps,
      session,
      'payment_method_updated',
      (customerName) => paymentMethodUpdated({ ...data, customerName }),
      readProfile,
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
  const reads = startReads(deps, session, id, true);
  const card = early(deps.paymentMethods.get(session.tenant, input.paymentMethodId));
  const config = await reads.config;
  requireFlag(config, 'allowUpdatePaymentMethod');
  const current = await reads.subscription();
  const known = withSubscription(deps, current);
  return changeCard(known, session, config, id, input.paymentMethodId, reads.profile, {
    subscription: current,
    card: await card(),
  });
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
  const reads = startReads(deps, session, id, true);
  const config = await reads.config;
  requireFlag(config, 'allowUpdatePaymentMethod');
  if (!luhnValid(input.cardNumber)) throw new ValidationError(['cardNumber is not a valid card number']);
  // The subscription is the customer's before any card reaches the provider.
  const current = await reads.subscription();
  const subscription = toSubscriptionView(current);
  const provider = deps.payments.forEnvironment(session.tenant.environment);
  if (!(await providerReady(provider, session.tenant)))
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  const customer = await reads.profile();
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
    customer: session.customer,
    provider: provider.provider,
    savedCard: result.savedCard,
  };
  const known = withSubscription(deps, current);
  const readProfile = async () => customer;
  // The card and the subscription's switch to it in one transaction (issue 17).
  const card = await newCardRecord(deps, save);
  try {
    const answer = await changeCard(known, session, config, subscription.id, card.id, readProfile, {
      subscription: current,
      card,
      cardIsNew: true,
    });
    await scheduleNextExpiryStep(deps, card);
    return answer;
  } catch (error) {
    if (!isConflict(error, 'already_exists') || error.code !== CARD_ALREADY_SAVED) throw error;
  }
  // The customer has this card saved already: saveCard answers the kept one (and forgets the new token).
  const kept = await saveCardRecord(deps, save);
  return changeCard(known, session, config, subscription.id, kept.id, readProfile, {
    subscription: current,
    card: kept,
  });
}

/** GET /api/portal/subscriptions/{id}/events: the subscription's history, when `allowViewInvoices` is on. */
export async function portalEvents(deps: PortalActionDeps, session: PortalSession, id: number) {
  const reads = startReads(deps, session, id, false);
  const config = await reads.config;
  requireFlag(config, 'allowViewInvoices');
  const current = await reads.subscription();
  return listSubscriptionEvents(withSubscription(deps, current), session.tenant, id, {
    customerId: session.customer.id,
  });
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
  const reads = startReads(deps, session, null, true);
  const config = await reads.config;
  requireFlag(config, 'allowUpdateBillingInfo');
  const { tenant, customer } = session;
  const customers = knowing(
    deps.customers,
    'findProfile',
    (t: PortalSession['tenant'], uuid: string) =>
      uuid === customer.uuid && t.sellerId === tenant.sellerId && t.environment === tenant.environment,
    await reads.profile(),
  );
  // The subscriber types it: the seller's reminders follow it, the customer area does not (`buyer`).
  return toPortalCustomer(
    await updateCustomer({ ...deps, customers }, tenant, customer.uuid, input, 'buyer'),
  );
}
