import type { Tenant } from '#shared/domain/tenant';
import type { LateChargeTerms } from './amount-due';

/**
 * The one port to a payment provider. Test-environment tenants always get the sandbox; live
 * tenants get the live provider (none is configured yet: it refuses to charge, never pretends).
 */
export type ChargeMethod = 'pix' | 'boleto' | 'creditcard';

export interface CardInput {
  number: string;
  holderName: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
}

/**
 * What a card's provider may want of its holder beyond name, document and e-mail (Asaas's
 * `creditCardHolderInfo`): the buyer's phone, and its address when the sale or the seller's
 * customer profile knows one. Providers that do not need them ignore them.
 */
export interface CardHolderContact {
  phone?: string;
  address?: { postalCode: string; number: string | null; complement: string | null };
  /**
   * The IP address the buyer paid from, when the buyer is at the request (Asaas's `remoteIp`); absent
   * for a charge without the buyer (a renewal on a saved card).
   */
  remoteIp?: string;
}

export interface ChargeRequest {
  tenant: Tenant;
  transactionId: number;
  /**
   * The attempt's reference (PaymentProvider.reserveReference): the charge carries it, so the
   * provider can be asked later what it holds under it. Absent: the provider draws one.
   */
  gatewayPayId?: number;
  method: ChargeMethod;
  amountCentavos: number;
  installments: number;
  description: string;
  customer: { name: string; document: string; email: string } & CardHolderContact;
  card?: CardInput;
  /** Boleto due date (YYYY-MM-DD, Sao Paulo). */
  dueDate?: string;
  /** Boleto: the fine, interest and discount registered with it (the bank charges them on payment). */
  lateCharges?: LateChargeTerms | null;
  /** When a pix charge stops being payable. */
  expiresAt?: string;
  /** Card only: tokenize the card when the charge is approved (the result carries `savedCard`). */
  saveCard?: boolean;
  /**
   * Pix only: the QR code also carries a Pix Automático consent for recurring debits of up to
   * `maxAmountCentavos` (the result's `pix.authorizationId`; the authorization becomes usable once the
   * buyer pays this first charge, and the buyer may revoke it at the bank).
   */
  recurringConsent?: RecurringConsent;
}

/**
 * A Pix Automático consent: debits up to `maxAmountCentavos`; `every` is the subscription's period
 * (a live provider registers the periodicity with the authorization; the sandbox ignores it).
 */
export interface RecurringConsent {
  maxAmountCentavos: number;
  description: string;
  every?: { interval: 'week' | 'month' | 'year'; count: number };
}

/**
 * A card the provider keeps for later charges without the buyer: its token (the provider's
 * secret handle, never shown in a response) and what may be shown of the card.
 */
export interface SavedCardToken {
  token: string;
  brand: string;
  last4: string;
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
}

/** A charge of a saved card, without the buyer present (no CVV): recurring and retried charges. */
export interface SavedCardChargeRequest {
  tenant: Tenant;
  transactionId: number;
  amountCentavos: number;
  installments: number;
  description: string;
  customer: { name: string; document: string; email: string };
  token: string;
  /**
   * The provider charges once per key (Stripe's Idempotency-Key): a retried renewal job sends the
   * same key and gets the first call's result instead of a second charge.
   */
  idempotencyKey: string;
}

/** A card to keep without charging it (a trial, a card change in the portal): verified, then tokenized. */
export interface TokenizeCardRequest {
  tenant: Tenant;
  customer: { name: string; document: string; email: string } & CardHolderContact;
  card: CardInput;
}

export type TokenizeResult =
  | { outcome: 'approved'; savedCard: SavedCardToken }
  | { outcome: 'declined'; failureCode: string; failureReason: string; gatewayFailureCode: string };

/** A debit through a Pix Automático authorization, without the buyer (a renewal). */
export interface PixAutomaticChargeRequest {
  tenant: Tenant;
  transactionId: number;
  amountCentavos: number;
  description: string;
  authorizationId: string;
  /** As SavedCardChargeRequest: one debit per key. */
  idempotencyKey: string;
}

export type PixAuthorizationStatus = 'pending' | 'active' | 'revoked';

export interface PixArtifact {
  qrCode: string;
  txid: string;
  expiresAt: string;
  /** Present when the charge asked for a recurring consent (Pix Automático). */
  authorizationId?: string;
}

export interface BoletoArtifact {
  barcode: string;
  digitableLine: string;
  formattedLine: string;
  dueDate: string;
  pdfUrl: string;
  /**
   * The boleto híbrido's pix: a dynamic BR Code (a `cobv` with the boleto's due date) for the same
   * charge; paying either settles it. Absent when the provider issued none.
   */
  pixQrCode?: string;
}

/** How a paid pix or boleto charge was paid: a hybrid boleto may be paid by its pix. */
export type PaidWith = 'pix' | 'boleto';

export interface CardSummary {
  brand: string;
  last4: string;
}

export type ChargeResult =
  | { outcome: 'pending'; gatewayPayId: number; pix?: PixArtifact; boleto?: BoletoArtifact }
  | {
      outcome: 'approved';
      gatewayPayId: number;
      card: CardSummary;
      authorizationCode: string;
      /** Present only when the request asked to save the card. */
      savedCard?: SavedCardToken;
    }
  | {
      outcome: 'declined' | 'error';
      gatewayPayId: number;
      card: CardSummary;
      failureCode: string;
      failureReason: string;
      gatewayFailureCode: string;
    };

export type ChargeStatus = 'pending' | 'paid' | 'failed' | 'canceled' | 'refunded' | 'charged_back';

export const PROVIDER_NOT_CONFIGURED =
  'No payment provider is configured for live payments; nothing was charged. Use a sk_test_ key for sandbox payments.';

export type SandboxAction = 'pay' | 'fail' | 'chargeback' | 'chargeback_reversal';

/** The sandbox provider's record of a charge. */
export interface SandboxCharge {
  gatewayPayId: number;
  /** The seller the charge was made for. */
  sellerId: number;
  method: ChargeMethod;
  amount: number;
  status: ChargeStatus;
  refunded: number;
  boleto: {
    barcode: string;
    formattedLine: string;
    dueDate: string;
    payerName: string;
    beneficiary: string;
    /** The terms registered with it: a pay simulated without an amount clears the amount due that day. */
    lateCharges?: LateChargeTerms | null;
    /** The hybrid boleto's pix BR Code. */
    pixQrCode?: string;
  } | null;
  /** How a paid charge was paid (a hybrid boleto: by its pix or as a boleto); absent while unpaid. */
  paidWith?: PaidWith;
}

/** What a lookup needs to answer as the charge would have (never the card itself). */
export interface ChargeLookupHint {
  method: ChargeMethod;
  /** Pix: the expiry the charge asked for. */
  expiresAt?: string;
  /** Card: whether the charge asked to keep the card, and its expiry to show of it. */
  saveCard?: boolean;
  cardExpiry?: { month: number; year: number } | null;
  /**
   * Pix with a recurring consent (a Pix Automático first pix): what the charge asked for, and whose
   * it is, since the provider holds it as an authorization of that customer, not as a payment.
   */
  recurringConsent?: RecurringConsent | null;
  customerDocument?: string;
}
