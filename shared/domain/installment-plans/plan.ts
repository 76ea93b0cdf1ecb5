import type { TransactionAffiliate } from '#shared/domain/affiliates/commission';
import type { LateChargeTerms } from '#shared/domain/payments/amount-due';
import type { Tenant } from '#shared/domain/tenant';

/**
 * Installment plans (carnê, issue 14): a sale split into 2..12 monthly boletos, credit the seller
 * grants. docs/decisions.md ("Installment plans (issue 14)") is the contract every module of
 * shared/domain/installment-plans follows; this file holds the stored shapes.
 *
 * Money is in centavos, the factor in ten-thousandths (FACTOR_SCALE), dates YYYY-MM-DD in Sao Paulo.
 */

export const INSTALLMENT_PLAN_NOT_FOUND = 'Installment plan not found';
export const INSTALLMENT_NOT_FOUND = 'Installment not found';
/** The one job of a plan: whatever is due at `dueAt` (issuance, due_today, reminders, overdue, grace end). */
export const INSTALLMENT_PLAN_DUE_JOB = 'installment-plan-due';

export const PLAN_STATUSES = [
  /** Created; installment 1 is a registered boleto, nothing else is payable yet. */
  'pending_activation',
  /** Installment 1 cleared: later installments are issued month by month. */
  'active',
  /** Every installment paid. */
  'completed',
  /** Canceled by the seller, or because installment 1 was not paid by the end of its grace period. */
  'canceled',
] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const PLAN_CANCEL_REASONS = ['seller', 'first_installment_unpaid'] as const;
export type PlanCancelReason = (typeof PLAN_CANCEL_REASONS)[number];

/** The spec's installment statuses (the same set as a scheduled-charge cycle's). */
export const INSTALLMENT_STATUSES = [
  'scheduled',
  'due_today',
  'paid',
  'overdue',
  'failed',
  'canceled',
] as const;
export type InstallmentStatus = (typeof INSTALLMENT_STATUSES)[number];
/** Installments still waiting for money. */
export const OPEN_INSTALLMENT_STATUSES: readonly InstallmentStatus[] = ['scheduled', 'due_today', 'overdue'];

/** The registered boleto of an installment (the current one: a second copy replaces it). */
export interface InstallmentBoleto {
  /** The boleto transaction (method boleto; `installmentPlan` names this plan and installment). */
  transactionId: number;
  gatewayPayId: number;
  /** The 47-digit linha digitável, formatted as the provider gave it. */
  barcodeLine: string;
  pdfUrl: string;
  /** The boleto híbrido's pix BR Code (copia e cola); absent when the provider issued none. */
  pixQrCode?: string;
  /** The boleto's own due date (a second copy may carry a later one than the installment's). */
  dueDate: string;
  issuedAt: string;
}

export interface Installment {
  /** 1..installments. */
  number: number;
  /** Centavos: the plan's installmentAmount. */
  amount: number;
  /** Anchored on firstDueDate (addMonthsAnchored): never drifts after a short month. */
  dueDate: string;
  status: InstallmentStatus;
  /** Null until issued (installment 1 at creation, the others month by month once the plan is active). */
  boleto: InstallmentBoleto | null;
  /** Second copies issued. */
  reissueCount: number;
  /** Reminder steps sent for the current boleto (`before_3`, `due`, `after_1`, …); a reissue clears it. */
  remindersSent: string[];
  paidAt: string | null;
  /** Centavos that cleared (may exceed `amount` with fine and interest; mark-paid records `amount`). */
  paidAmount: number | null;
  paidBy: 'notification' | 'mark_paid' | null;
  /** The transaction that paid it. */
  paidTransactionId: number | null;
  /**
   * Fine, interest and discount of its boleto (discount tiers dated for `dueDate`; a second copy's
   * keep their distance from its own due date). Null or absent: none.
   */
  lateCharges?: LateChargeTerms | null;
}

export interface InstallmentPlan {
  /** The public id (UUID v4). */
  uuid: string;
  tenant: Tenant;
  status: PlanStatus;
  cancelReason: PlanCancelReason | null;
  product: { id: number; uuid: string; name: string };
  customer: { id: number; uuid: string; name: string; email: string; document: string };
  /** Fixed at creation for every installment; its commission is recorded on each paid installment. */
  affiliate: TransactionAffiliate | null;
  installments: number;
  installmentsPaid: number;
  /** Centavos: the product's cash price at creation. */
  baseValue: number;
  /** Ten-thousandths (10349 = 1.0349): the product's factor for this count, frozen at creation. */
  fator: number;
  /** Centavos, see installmentAmountOf. */
  installmentAmount: number;
  /** installmentAmount × installments. */
  totalScheduled: number;
  /** Centavos that actually cleared (sum of paidAmount). Never used in place of totalScheduled. */
  totalCollected: number;
  firstDueDate: string;
  /** Every installment, 1..installments (the repository may store each as its own item). */
  installmentsDetail: Installment[];
  /** Open installments that are overdue now (the customer's overdue count moved with them). */
  overdueInstallments: number;
  /** The next time the due job has work; null when nothing will ever be due. */
  dueAt: string | null;
  /** The sandbox test clock it lives on (its customer's, at creation): its due work runs in that clock's time. */
  testClockId?: string | null;
  /** The days from each due date its reminders go out at (the customer's schedule; null: the default's). */
  reminderOffsets: number[] | null;
  /** The duplicate guard's fingerprint (decisions: "Installment plans (issue 14)"). */
  fingerprint: string;
  /**
   * The public link of the printable booklet (`/carne/{token}`), once the seller asked for it;
   * null before, and after the seller revoked it. The token is the link's only credential.
   */
  booklet: { token: string; createdAt: string } | null;
  activatedAt: string | null;
  completedAt: string | null;
  canceledAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** ConflictError code of a create whose fingerprint another plan holds (InstallmentPlanChanges.fingerprint). */
export const FINGERPRINT_HELD = 'fingerprint_held';
