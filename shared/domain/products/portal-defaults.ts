import type { LateChargeDefaults } from '#shared/domain/payments/late-charge-settings';
// Apart from portal-config.ts so that the DynamoDB adapter reads them without building that
// module's zod schemas at every function's cold start (every function loads the repositories).

/**
 * The customer portal's look and allowed actions, per product or per seller. The spec gives the
 * defaults of primaryColor and the four allow… flags; the rest default to off / empty.
 */
export const PORTAL_DEFAULTS = {
  businessName: null as string | null,
  logoUrl: null as string | null,
  primaryColor: '#257264',
  allowCancelSubscription: true,
  allowUpdatePaymentMethod: true,
  allowUpdateBillingInfo: true,
  allowViewInvoices: true,
  cancelAtPeriodEndOnly: false,
  requireCancelReason: false,
  sendCancellationEmail: true,
  sendPaymentMethodUpdatedEmail: true,
  customWelcomeText: null as string | null,
  customSuccessMessage: null as string | null,
  customCancellationMessage: null as string | null,
  /** The fine and interest of this seller's (or product's) new charges unless a charge sets its own. */
  lateCharges: null as LateChargeDefaults | null,
};

export type PortalSettings = typeof PORTAL_DEFAULTS;
export type PortalFields = Partial<PortalSettings>;
