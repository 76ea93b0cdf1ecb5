import { chargeCustomer, subscription, subscriptionHistory } from '#shared/http/example-story';
import { defineExamples } from '#shared/http/examples';
import { portalRoutes } from './routes';

/**
 * Calls of the customer portal for the API reference (read by the OpenAPI generator and the tests
 * only). The token routes take the session's token as the `token` query parameter (the
 * portalToken scheme: Authorize with it).
 */

const token = 'pt_Bic0ijeCjY1oJhruJDcUBilWdTmCLU1ATAFTfyGWt5e';
const actions = {
  cancel: true,
  pause: true,
  resume: false,
  reactivate: false,
  updatePaymentMethod: true,
  viewInvoices: true,
} as const;
const inPortal = {
  ...subscription,
  actions,
  cancelRules: { atPeriodEndOnly: true, reasonRequired: false },
} as const;
const newCard = { id: 4, cardBrand: 'visa', cardLast4: '4242' } as const;
const onNewCard = { ...inPortal, paymentMethodId: 4, paymentMethod: newCard } as const;
const portalCustomer = { ...chargeCustomer, phone: '11987654321' } as const;

export const examples = defineExamples(portalRoutes, {
  createPortalSession: {
    body: { customerId: 1, productId: 1, returnUrl: 'https://example.com/minha-conta' },
    responses: {
      201: {
        sessionId: 1,
        token,
        expiresAt: '2026-11-28T18:09:34.199Z',
        portalUrl: `http://127.0.0.1:3000/portal?token=${token}`,
      },
    },
  },
  getPortal: {
    responses: {
      200: {
        sessionId: 1,
        expiresAt: '2026-11-28T18:09:34.199Z',
        returnUrl: 'https://example.com/minha-conta',
        customer: portalCustomer,
        configuration: {
          source: 'seller',
          businessName: 'Escola Harmonia',
          logoUrl: null,
          primaryColor: '#257264',
          allowCancelSubscription: true,
          allowUpdatePaymentMethod: true,
          allowUpdateBillingInfo: true,
          allowViewInvoices: true,
          cancelAtPeriodEndOnly: true,
          requireCancelReason: false,
          sendCancellationEmail: true,
          sendPaymentMethodUpdatedEmail: true,
          customWelcomeText: null,
          customSuccessMessage: null,
          customCancellationMessage: null,
          lateCharges: null,
        },
        subscriptions: [inPortal],
        paymentMethods: [
          {
            id: 1,
            uuid: '7c3ede88-3a1d-4bcd-bea3-58f996f4c7af',
            type: 'card',
            customerId: 1,
            customerUuid: chargeCustomer.uuid,
            brand: 'visa',
            last4: '1111',
            expiryMonth: 12,
            expiryYear: 2031,
            status: 'active',
            expiresAt: '2032-01-01T03:00:00.000Z',
            createdAt: '2026-11-28T17:05:39.420Z',
            updatedAt: '2026-11-28T17:05:39.420Z',
          },
        ],
      },
    },
  },
  portalCancelSubscription: {
    path: { id: '1' },
    body: { reason: 'Vou pausar os estudos' },
    responses: {
      200: {
        ...onNewCard,
        status: 'pending_cancellation',
        cancelAt: subscription.currentPeriodEnd,
        cancelAtPeriodEnd: true,
        cancelReason: 'Vou pausar os estudos',
        updatedAt: '2026-11-28T17:09:34.345Z',
        actions: { ...actions, cancel: false, pause: false, reactivate: true },
      },
    },
  },
  portalPauseSubscription: {
    path: { id: '1' },
    responses: {
      200: {
        ...onNewCard,
        pauseCollection: { behavior: 'void', pausedAt: '2026-11-28T17:09:34.315Z' },
        updatedAt: '2026-11-28T17:09:34.315Z',
        actions: { ...actions, pause: false, resume: true },
      },
    },
  },
  portalResumeSubscription: {
    path: { id: '1' },
    responses: { 200: { ...onNewCard, updatedAt: '2026-11-28T17:09:34.330Z' } },
  },
  portalReactivateSubscription: {
    path: { id: '1' },
    responses: { 200: { ...onNewCard, updatedAt: '2026-11-28T17:09:34.373Z' } },
  },
  portalUpdatePaymentMethod: {
    path: { id: '1' },
    body: { paymentMethodId: 1 },
    responses: { 200: { ...inPortal, updatedAt: '2026-11-28T17:09:34.272Z' } },
  },
  portalAddCardAndUpdate: {
    path: { id: '1' },
    body: {
      cardNumber: '4242424242424242',
      holderName: 'MARIA SOUZA',
      expiryMonth: 8,
      expiryYear: 2032,
      cvv: '321',
    },
    responses: { 200: { ...onNewCard, updatedAt: '2026-11-28T17:09:34.289Z' } },
  },
  portalSubscriptionEvents: { path: { id: '1' }, responses: { 200: subscriptionHistory } },
  portalUpdateCustomerInfo: {
    body: { phone: '(11) 98765-4321' },
    responses: { 200: portalCustomer },
  },
});
