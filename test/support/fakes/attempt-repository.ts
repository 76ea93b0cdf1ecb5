import type { PaymentAttempt } from '#shared/domain/attempts/attempt';
import { jobId } from '#shared/domain/job-id';
import type { AttemptRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { writeOrStage } from './unit-of-work';

const keyOf = (tenant: Tenant, id: string) => `${tenant.sellerId}:${tenant.environment}:${id}`;
const changed = () =>
  new ConflictError('The payment attempt changed', 'concurrent_update', { reason: 'changed' });

/** Payment attempts in memory, with the repository's version and status conditions. */
export class FakeAttemptRepository implements AttemptRepository {
  readonly attempts = new Map<string, PaymentAttempt>();

  all(): PaymentAttempt[] {
    return [...this.attempts.values()];
  }

  async create(attempt: PaymentAttempt) {
    const key = keyOf(attempt.tenant, attempt.id);
    if (this.attempts.has(key))
      throw new ConflictError('The payment attempt already exists', 'already_exists', {
        reason: 'already_exists',
      });
    this.attempts.set(key, structuredClone(attempt));
  }

  async get(tenant: Tenant, id: string) {
    const found = this.attempts.get(keyOf(tenant, id));
    return found ? structuredClone(found) : null;
  }

  /** Staged inside fakeAtomically, as the adapter's Table.write: all or nothing with the unit's other writes. */
  private save(
    next: PaymentAttempt,
    previous: PaymentAttempt,
    from: PaymentAttempt['status'][],
    anyVersion = false,
  ) {
    const key = keyOf(previous.tenant, previous.id);
    return writeOrStage({
      check: () => {
        const stored = this.attempts.get(key);
        if (!stored || (!anyVersion && stored.version !== previous.version) || !from.includes(stored.status))
          throw changed();
      },
      apply: () => {
        this.attempts.set(key, structuredClone(next));
      },
    });
  }

  async settle(attempt: PaymentAttempt, at: string) {
    const next = { ...attempt, status: 'settled' as const, outcome: 'recorded', dueAt: null };
    await this.save(
      { ...next, updatedAt: at, version: attempt.version + 1 },
      attempt,
      ['pending', 'voided'],
      true,
    );
  }

  async void(attempt: PaymentAttempt, at: string) {
    const next = { ...attempt, status: 'voided' as const, outcome: 'not_at_provider', dueAt: null };
    await this.save({ ...next, updatedAt: at, version: attempt.version + 1 }, attempt, ['pending']);
  }

  async reopen<A extends PaymentAttempt>(attempt: A, at: string, dueAt: string): Promise<A> {
    const next = {
      ...attempt,
      status: 'pending' as const,
      outcome: null,
      dueAt,
      updatedAt: at,
      version: attempt.version + 1,
    };
    await this.save(next, attempt, ['voided']);
    return next;
  }

  async postpone(attempt: PaymentAttempt, at: string, dueAt: string) {
    await this.save({ ...attempt, dueAt, updatedAt: at, version: attempt.version + 1 }, attempt, ['pending']);
  }

  async dueJobIds(now: Date) {
    return this.all()
      .filter((a) => a.status === 'pending' && a.dueAt !== null && a.dueAt <= now.toISOString())
      .map((a) => jobId(a.tenant, a.id));
  }
}
