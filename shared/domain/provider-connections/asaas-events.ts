export type NotificationType = 'charge.paid' | 'charge.failed' | 'charge.charged_back' | 'charge.canceled';

/**
 * Webhook events ("Payment events", docs.asaas.com/docs/payment-events) that move a transaction, as
 * the sandbox notification of the same meaning. Every other event is acknowledged and changes
 * nothing (PAYMENT_CREATED, _UPDATED, _VIEWED, _ANTICIPATED, refunds we asked for ourselves…).
 */
export const ASAAS_EVENTS: Readonly<Record<string, NotificationType>> = {
  PAYMENT_CONFIRMED: 'charge.paid',
  PAYMENT_RECEIVED: 'charge.paid',
  PAYMENT_OVERDUE: 'charge.failed',
  PAYMENT_CREDIT_CARD_CAPTURE_REFUSED: 'charge.failed',
  PAYMENT_REPROVED_BY_RISK_ANALYSIS: 'charge.failed',
  PAYMENT_DELETED: 'charge.canceled',
  PAYMENT_CHARGEBACK_REQUESTED: 'charge.charged_back',
};

/** The failure code a failing event carries (the event name is kept as the raw code). */
export const EVENT_FAILURE: Readonly<Record<string, { failureCode: string; failureReason: string }>> = {
  PAYMENT_OVERDUE: {
    failureCode: 'payment_overdue',
    failureReason: 'The charge was not paid by its due date.',
  },
  PAYMENT_CREDIT_CARD_CAPTURE_REFUSED: {
    failureCode: 'card_declined',
    failureReason: 'The card capture was refused.',
  },
  PAYMENT_REPROVED_BY_RISK_ANALYSIS: {
    failureCode: 'fraud_suspected',
    failureReason: 'The payment was refused by the risk analysis.',
  },
};
