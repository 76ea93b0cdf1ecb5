import { BASIS_POINTS_PER_PERCENT } from '#shared/domain/affiliates/affiliation';
import { affiliateSale } from '#shared/domain/affiliates/index';
import { registerAhead } from '#shared/domain/attempts/registration';
import type { DomainEvent } from '#shared/domain/events/events';
import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { termsForDueDate } from '#shared/domain/payments/late-charge-settings';
import { providerReady } from '#shared/domain/payments/provider-ready';
import { eventsOf } from '#shared/domain/transactions/create';
import { canApply } from '#shared/domain/transactions/state-machine';
import { sellerNet, type Transaction } from '#shared/domain/transactions/transaction';
import { transition } from '#shared/domain/transactions/transitions';
import { isConflict, ServiceUnavailableError } from '#shared/errors';
import type { InstallmentPlanDeps } from './deps';
import type { Installment, InstallmentBoleto, InstallmentPlan } from './plan';

/**
 * Registration of an installment's boleto (docs/decisions.md, "Installment plans (issue 14)"): made
 * through the provider like a scheduled charge's (scheduled-charges/issue.ts), stored as a boleto
 * transaction that names the plan and installment (`installmentPlan`), written with the plan's save.
 */

export type IssueDeps = Pick<
  InstallmentPlanDeps,
  'transactions' | 'attempts' | 'payments' | 'scheduler' | 'clock' | 'clockScope' | 'ids' | 'reporter'
>;

export interface IssuedBoleto {
  boleto: InstallmentBoleto;
  transaction: { record: Transaction; events: DomainEvent[] };
}

/** The provider of the plan's environment, refusing (503) before anything is written when it cannot issue. */
export async function providerOf(
  deps: Pick<InstallmentPlanDeps, 'payments'>,
  plan: Pick<InstallmentPlan, 'tenant'>,
) {
  const provider = deps.payments.forEnvironment(plan.tenant.environment);
  if (!(await providerReady(provider, plan.tenant)))
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  return provider;
}

/**
 * Registers a boleto of `installment.amount` due on `dueDate` at the provider; nothing is stored
 * until the caller saves. The affiliate fixed at creation takes its commission of the seller's net.
 */
export async function issueBoleto(
  deps: IssueDeps,
  plan: InstallmentPlan,
  installment: Installment,
  dueDate: string,
): Promise<IssuedBoleto> {
  const provider = await providerOf(deps, plan);
  const at = deps.clock.now().toISOString();
  const id = await deps.transactions.nextId();
  const amount = installment.amount;
  const description = `${plan.product.name} (parcela ${installment.number}/${plan.installments})`;
  // Written ahead: a crash before the plan's save leaves an attempt whose reconciler cancels the
  // boleto nobody wrote.
  const gatewayPayId = await registerAhead(deps, provider, plan.tenant, {
    transactionId: id,
    method: 'boleto',
    of: 'installment',
    amountCentavos: amount,
  });
  const lateCharges = termsForDueDate(installment.lateCharges ?? null, installment.dueDate, dueDate);
  const result = await provider.createCharge({
    tenant: plan.tenant,
    transactionId: id,
    gatewayPayId,
    method: 'boleto',
    amountCentavos: amount,
    installments: 1,
    description,
    customer: { name: plan.customer.name, document: plan.customer.document, email: plan.customer.email },
    dueDate,
    lateCharges,
  });
  if (result.outcome !== 'pending' || !result.boleto)
    throw new ServiceUnavailableError(
      'The payment provider did not register the boleto; nothing was changed',
    );
  const sale = affiliateSale(
    plan.affiliate
      ? {
          affiliateId: plan.affiliate.affiliateId,
          commissionBasisPoints: Math.round(plan.affiliate.commissionPercent * BASIS_POINTS_PER_PERCENT),
        }
      : null,
    sellerNet('boleto', amount, 1),
  );
  const record: Transaction = {
    id,
    uuid: deps.ids.uuid(),
    tenant: plan.tenant,
    provider: provider.provider,
    gatewayPayId: result.gatewayPayId,
    status: 'pendingBoleto',
    paymentMethod: 'boleto',
    value: amount,
    valueSeller: sale.valueSeller,
    installments: 1,
    // The plan keeps no phone: the transaction shows none rather than a stale one.
    customer: { ...plan.customer, phone: '' },
    product: { ...plan.product, value: amount },
    pix: null,
    boleto: result.boleto,
    card: null,
    failureCode: null,
    failureReason: null,
    refunds: [],
    refundedAmount: 0,
    paidAt: null,
    canceledAt: null,
    deadline: dueDate,
    metadata: {},
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: sale.affiliate,
    recurring: null,
    scheduledCharge: null,
    installmentPlan: { planUuid: plan.uuid, number: installment.number },
    ...(lateCharges ? { lateCharges } : {}),
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  return {
    boleto: {
      transactionId: id,
      gatewayPayId: result.gatewayPayId,
      barcodeLine: result.boleto.formattedLine,
      pdfUrl: result.boleto.pdfUrl,
      ...(result.boleto.pixQrCode ? { pixQrCode: result.boleto.pixQrCode } : {}),
      dueDate,
      issuedAt: at,
    },
    transaction: { record, events: eventsOf(deps, record) },
  };
}

/** A lost save: the boleto the provider registered is made unpayable (nothing references it). */
export async function undoBoleto(
  deps: Pick<IssueDeps, 'payments'>,
  plan: InstallmentPlan,
  issued: IssuedBoleto,
) {
  await deps.payments
    .forEnvironment(plan.tenant.environment)
    .cancel(issued.boleto.gatewayPayId)
    .catch(() => undefined);
}

/**
 * Makes boletos unpayable after the plan's save (a second copy replaced them, the plan was
 * canceled): canceled at the provider, then the transaction `cancel`. Best effort; a failure is reported.
 */
export async function cancelBoletos(
  deps: Pick<InstallmentPlanDeps, 'transactions' | 'payments' | 'clock' | 'ids' | 'reporter'>,
  plan: InstallmentPlan,
  boletos: InstallmentBoleto[],
): Promise<void> {
  for (const b of boletos) {
    try {
      const t = await deps.transactions.get(plan.tenant, b.transactionId);
      if (!t || !canApply('cancel', t.status)) continue;
      await deps.payments.forEnvironment(plan.tenant.environment).cancel(b.gatewayPayId);
      await transition(deps, t, 'cancel');
    } catch (error) {
      if (!isConflict(error))
        deps.reporter.error('could not cancel an unpaid installment boleto', error, { id: b.transactionId });
    }
  }
}
