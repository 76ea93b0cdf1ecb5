import type { EventsOf } from '#shared/domain/events/events';
import { BadRequestError, ConflictError } from '#shared/errors';
import { PAID, PENDING, type Transaction, type TransactionStatus } from './transaction';

/**
 * Every status change of a transaction, as data. docs/decisions.md shows the same table.
 * A trigger applied to a status it does not list is refused: late or out-of-order provider
 * notifications can never move a paid transaction back to pending, nor pay a cancelled one.
 */
export type Trigger = 'pay' | 'fail' | 'cancel' | 'expire' | 'chargeback' | 'refund' | 'chargeback_reversal';

/** The paid status a sale of this method has (the one a won chargeback restores). */
export const paidStatusOf = (t: Transaction): TransactionStatus =>
  t.paymentMethod === 'pix' ? 'payedPix' : t.paymentMethod === 'boleto' ? 'payedBoleto' : 'captured';

interface Rule {
  from: readonly TransactionStatus[];
  to: (t: Transaction, fullRefund: boolean) => TransactionStatus;
  events: (t: Transaction, fullRefund: boolean) => EventsOf<'transaction'>[];
}

export const RULES: Record<Trigger, Rule> = {
  pay: {
    from: PENDING,
    to: (t) => (t.paymentMethod === 'pix' ? 'payedPix' : 'payedBoleto'),
    events: () => ['transaction.updated', 'transaction.payment.succeeded'],
  },
  fail: {
    from: PENDING,
    to: () => 'denied',
    events: () => ['transaction.updated', 'transaction.payment.failed', 'transaction.failed'],
  },
  cancel: {
    from: PENDING,
    to: () => 'cancel',
    events: () => ['transaction.updated', 'transaction.canceled'],
  },
  expire: {
    from: ['pendingPix'],
    to: () => 'cancel',
    events: () => ['transaction.updated', 'transaction.canceled'],
  },
  chargeback: {
    from: PAID,
    to: () => 'reversed',
    events: () => ['transaction.updated', 'transaction.chargeback'],
  },
  refund: {
    from: PAID,
    to: (t, full) => (full ? 'reversed' : t.status),
    events: () => ['transaction.updated', 'transaction.refunded'],
  },
  // The dispute was won: the sale stands again, as it was before the chargeback (see canApplyTo).
  chargeback_reversal: {
    from: ['reversed'],
    to: (t) => paidStatusOf(t),
    events: () => ['transaction.updated', 'transaction.chargeback_reversed'],
  },
};

export function canApply(trigger: Trigger, status: TransactionStatus): boolean {
  return RULES[trigger].from.includes(status);
}

/**
 * canApply, plus what the status alone cannot tell: only a sale reversed by a chargeback still open
 * can be restored (a full refund also ends `reversed`; a chargeback already won is not won twice).
 * A chargeback stored before the record existed is known by its failure code.
 */
export function canApplyTo(trigger: Trigger, t: Transaction): boolean {
  if (!canApply(trigger, t.status)) return false;
  if (trigger !== 'chargeback_reversal') return true;
  return t.chargeback ? t.chargeback.status === 'open' : t.failureCode === 'chargeback';
}

/** The refusal a caller sees for a trigger that does not apply to the current status. */
export function refusal(trigger: Trigger, t: Transaction): Error {
  if ((trigger === 'cancel' || trigger === 'expire') && PAID.includes(t.status)) {
    return new BadRequestError(
      'Paid transactions cannot be canceled; refund them instead',
      'transaction_paid',
    );
  }
  if (trigger === 'refund' && !PAID.includes(t.status)) {
    return new BadRequestError(
      `Only paid transactions can be refunded (status is ${t.status})`,
      'transaction_not_paid',
    );
  }
  if (trigger === 'cancel') {
    return new BadRequestError(
      `Only pending transactions can be canceled (status is ${t.status})`,
      'transaction_not_pending',
    );
  }
  if (trigger === 'chargeback_reversal') {
    return new ConflictError(
      'Only a sale reversed by a chargeback can have it reversed',
      'invalid_transition',
    );
  }
  return new ConflictError(
    `A ${t.status} transaction cannot be ${trigger === 'pay' ? 'paid' : `${trigger}ed`}`,
    'invalid_transition',
  );
}
