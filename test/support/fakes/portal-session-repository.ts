import type { RateWindow } from '#shared/domain/auth/rate-limit';
import type { PortalSession } from '#shared/domain/portal/session';
import type { PortalSessionRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';

/** A day past its expiry, as the DynamoDB item's TTL: the table may delete it any time after. */
const TTL_MARGIN_MS = 86_400_000;

/**
 * Portal sessions by token hash, with the DynamoDB repository's outcomes: a hash stored twice is
 * ConflictError `already_exists`; an expired session is still answered until its TTL (callers
 * check `expiresAt`). `expireTtl(now)` drops what DynamoDB's TTL could have deleted by `now`.
 */
export class FakePortalSessionRepository implements PortalSessionRepository {
  readonly items = new Map<string, PortalSession>();
  /** Each session's rate window and its count (the DynamoDB item's rl0/rl1 slots). */
  private readonly windows = new Map<string, { window: number; count: number }>();
  private lastId: number;

  constructor(firstId = 1) {
    this.lastId = firstId - 1;
  }

  async nextId(): Promise<number> {
    return ++this.lastId;
  }

  async create(session: PortalSession): Promise<void> {
    if (this.items.has(session.tokenHash))
      throw new ConflictError('The portal session already exists', 'already_exists', {
        reason: 'already_exists',
      });
    this.items.set(session.tokenHash, structuredClone(session));
  }

  async findByTokenHash(tokenHash: string): Promise<PortalSession | null> {
    const found = this.items.get(tokenHash);
    return found ? structuredClone(found) : null;
  }

  async authenticate(
    tokenHash: string,
    at: Date,
    window: RateWindow,
  ): Promise<{ session: PortalSession; count: number } | null> {
    const found = this.items.get(tokenHash);
    if (!found || Date.parse(found.expiresAt) <= at.getTime()) return null;
    const current = this.windows.get(tokenHash);
    const count = current?.window === window.index ? current.count + 1 : 1;
    this.windows.set(tokenHash, { window: window.index, count });
    return { session: structuredClone(found), count };
  }

  /** The TTL (epoch seconds) the DynamoDB item would carry, for a stored session. */
  ttlOf(tokenHash: string): number | undefined {
    const found = this.items.get(tokenHash);
    return found ? (Date.parse(found.expiresAt) + TTL_MARGIN_MS) / 1000 : undefined;
  }

  expireTtl(now: Date): void {
    for (const [hash, s] of this.items)
      if (Date.parse(s.expiresAt) + TTL_MARGIN_MS <= now.getTime()) {
        this.items.delete(hash);
        this.windows.delete(hash);
      }
  }
}
