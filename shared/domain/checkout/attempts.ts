import type { CheckoutSessionRepository } from '#shared/domain/ports';
import { cancelCharge } from '#shared/domain/transactions/cancel';
import type { KeptSale } from '#shared/domain/transactions/create';
import { type ManageDeps, refundTransaction } from '#shared/domain/transactions/manage';
import { canApply } from '#shared/domain/transactions/state-machine';
import { PAID, type Transaction } from '#shared/domain/transactions/transaction';
import { isConflict } from '#shared/errors';
import { notOpen } from './outcome';
import { type CheckoutMethod, type CheckoutSession, sessionWith } from './session';

/**
 * A payment that must not stand (made after its session closed, or one the session did not keep):
 * nothing stays payable and no money is kept. A pending pix or boleto is canceled, an approved card
 * refunded.
 */
export async function undoPayment(deps: ManageDeps, t: Transaction, reason: string) {
  if (canApply('cancel', t.status)) {
    await cancelCharge(deps, t);
  } else if (PAID.includes(t.status)) {
    await refundTransaction(deps, t, { reason });
  }
}

/**
 * Records the payment on its session while the session is open. A session that closed while the
 * provider was charging (it expired, or another payment completed it) gets nothing: the payment is
 * undone and the answer is the page's 409.
 */
export async function recordPayment(
  deps: ManageDeps & { sessions: CheckoutSessionRepository },
  session: CheckoutSession,
  t: Transaction,
  method: CheckoutMethod,
): Promise<CheckoutSession> {
  const now = deps.clock.now().toISOString();
  const payment = { transactionId: t.id, transactionUuid: t.uuid, method, createdAt: now };
  try {
    await deps.sessions.addPayment(session.id, payment, now);
    return sessionWith(session, payment);
  } catch (error) {
    if (!isConflict(error, 'invalid_state')) throw error;
    await undoPayment(deps, t, 'checkout session closed before the payment was recorded');
    const current = await deps.sessions.get(session.id);
    throw notOpen(current?.status === 'complete' ? 'complete' : 'expired');
  }
}

/**
 * The session after a sale that asked to be recorded on it (`recordOnSession`): as the sale's write
 * left it, or as read when the sale was already recorded there (a retry of a request whose sale was
 * written); else the session closed meanwhile, and recordPayment undoes the payment.
 */
export function sessionAfterSale(
  deps: ManageDeps & { sessions: CheckoutSessionRepository },
  session: CheckoutSession,
  sale: KeptSale,
  method: CheckoutMethod,
): Promise<CheckoutSession> | CheckoutSession {
  const t = sale.transaction;
  if (sale.sessionPayment) return sessionWith(session, sale.sessionPayment);
  if (session.payments.some((p) => p.transactionId === t.id)) return session;
  return recordPayment(deps, session, t, method);
}
