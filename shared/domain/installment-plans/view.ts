import { saoPauloDate } from '#shared/dates';
import { toAffiliateCommissionView } from '#shared/domain/affiliates/index';
import { amountDueView, termsForDueDate } from '#shared/domain/payments/late-charge-settings';
import { FACTOR_SCALE } from '#shared/domain/products/products';
import { centavosToReais } from '#shared/money';
import { type Installment, type InstallmentPlan, OPEN_INSTALLMENT_STATUSES } from './plan';

/** One installment as the API shows it (spec: Installment item), money in Reais. */
export function toInstallmentView(i: Installment, today: string) {
  const open = OPEN_INSTALLMENT_STATUSES.includes(i.status);
  const dueDate = i.boleto?.dueDate ?? i.dueDate;
  return {
    number: i.number,
    amount: centavosToReais(i.amount),
    dueDate: i.dueDate,
    ...amountDueView(today, {
      amount: i.amount,
      dueDate,
      lateCharges: termsForDueDate(i.lateCharges ?? null, i.dueDate, dueDate),
      open: open && i.boleto !== null,
    }),
    status: i.status,
    boleto: i.boleto
      ? {
          barcodeLine: i.boleto.barcodeLine,
          pdfUrl: i.boleto.pdfUrl,
          dueDate: i.boleto.dueDate,
          pixQrCode: i.boleto.pixQrCode ?? null,
        }
      : null,
    reissueCount: i.reissueCount,
    transactionId: i.boleto?.transactionId ?? null,
    paidAt: i.paidAt,
    paidAmount: i.paidAmount === null ? null : centavosToReais(i.paidAmount),
    paidBy: i.paidBy,
    paidTransactionId: i.paidTransactionId,
  };
}

/** The spec's Installment plan resource plus our fields; `fator` as a number (1.0349). */
export function toPlanView(p: InstallmentPlan, today: string = saoPauloDate(new Date(p.updatedAt))) {
  return {
    uuid: p.uuid,
    object: 'installment_plan' as const,
    status: p.status,
    cancelReason: p.cancelReason,
    installments: p.installments,
    installmentsPaid: p.installmentsPaid,
    baseValue: centavosToReais(p.baseValue),
    fator: p.fator / FACTOR_SCALE,
    installmentAmount: centavosToReais(p.installmentAmount),
    totalScheduled: centavosToReais(p.totalScheduled),
    totalCollected: centavosToReais(p.totalCollected),
    firstDueDate: p.firstDueDate,
    installmentsDetail: p.installmentsDetail.map((i) => toInstallmentView(i, today)),
    customer: p.customer,
    product: p.product,
    affiliate: p.affiliate ? toAffiliateCommissionView(p.affiliate) : null,
    environment: p.tenant.environment,
    ...(p.testClockId ? { testClockId: p.testClockId } : {}),
    activatedAt: p.activatedAt,
    completedAt: p.completedAt,
    canceledAt: p.canceledAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
