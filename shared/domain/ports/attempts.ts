import type { PaymentAttempt } from '#shared/domain/attempts/attempt';
import type { Tenant } from '#shared/domain/tenant';

/** Payment attempts, written ahead of every provider call that can move money. */
export interface AttemptRepository {
  /** Writes a new pending attempt; ConflictError `exists` when its id is taken (a concurrent retry). */
  create(attempt: PaymentAttempt): Promise<void>;
  get(tenant: Tenant, id: string): Promise<PaymentAttempt | null>;
  /**
   * Marks the attempt settled, on the version read: inside `atomically` it goes out with what the
   * provider's answer made (the transaction). ConflictError `changed` when another run moved it.
   */
  settle(attempt: PaymentAttempt, at: string): Promise<void>;
  /** Voids it (nothing at the provider), on the version read; ConflictError `changed` otherwise. */
  void(attempt: PaymentAttempt, at: string): Promise<void>;
  /** Makes a voided attempt pending again (a retry charges under it), on the version read. */
  reopen<A extends PaymentAttempt>(attempt: A, at: string, dueAt: string): Promise<A>;
  /** Moves when the reconciler looks next, on the version read. */
  postpone(attempt: PaymentAttempt, at: string, dueAt: string): Promise<void>;
  /** The job ids of pending attempts due by `now` (the heartbeat's sweep). */
  dueJobIds(now: Date, hoursBack: number): Promise<string[]>;
}
