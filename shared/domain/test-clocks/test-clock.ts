import * as z from 'zod';
import { limitQuery } from '#shared/domain/paging';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';

export const TEST_CLOCK_NOT_FOUND = 'Test clock not found';

/** `clock_` and 24 base62 characters. */
export const TEST_CLOCK_ID = /^clock_[0-9A-Za-z]{24}$/;

export type TestClockStatus = 'ready' | 'advancing';

/**
 * A sandbox seller's test clock (Stripe's test clock): the business time of the customers attached
 * to it and of their subscriptions, scheduled charges, carnês and saved cards. It moves only when advanced.
 */
export interface TestClock {
  tenant: Tenant;
  id: string;
  name: string | null;
  /** The clock's time: what the business clock reads for the work on it. */
  frozenTime: string;
  /** `advancing` while an advance runs the due work up to `advancingTo`. */
  status: TestClockStatus;
  advancingTo: string | null;
  /** Real time (the wall clock), as an API key's. */
  createdAt: string;
  updatedAt: string;
  /**
   * When the clock deletes itself, TEST_CLOCK_LIFETIME_DAYS after its creation on the service's
   * clock (the time its one-time schedule and the heartbeat's sweep run on).
   */
  deletesAfter: string;
  /** The optimistic lock. */
  version: number;
}

/**
 * The limits that keep an advance bounded, as Stripe's: an advance moves at most two billing
 * periods of the shortest subscription on the clock, and runs at most MAX_RUNS_PER_ADVANCE due
 * jobs (the rest is left to the same advance repeated, which resumes it).
 */
export const MAX_PERIODS_PER_ADVANCE = 2;
export const MAX_RUNS_PER_ADVANCE = 300;
/** With no subscription on the clock, an advance moves it at most this many years (Stripe's limit). */
export const MAX_YEARS_PER_ADVANCE = 2;

/** A clock deletes itself this long after its creation, as Stripe's `deletes_after`. */
export const TEST_CLOCK_LIFETIME_DAYS = 30;
/** Clocks a seller may keep in one sandbox environment; a deletion (or an auto-deletion) frees one. */
export const MAX_TEST_CLOCKS = 100;
/** The one-time job that deletes a clock at its `deletesAfter` (the heartbeat sweeps what it missed). */
export const TEST_CLOCK_DELETION_JOB = 'test-clock-deletion';

export class TestClockLimitError extends ConflictError {
  constructor(max: number) {
    super(
      `A seller may have at most ${max} test clocks in the sandbox; delete one before creating another`,
      'limit_reached',
      { reason: 'invalid_state' },
    );
  }
}

/** The kinds of resource whose due work lives on a clock (the clock's due index); a saved card's is its expiry. */
export type ClockDueKind = 'subscription' | 'scheduled-charge' | 'installment-plan' | 'payment-method';

/** One entry of a clock's due index: which resource's due job, and when it is due. */
export interface ClockDueItem {
  kind: ClockDueKind;
  /** The due job's id (`<sellerId>:<environment>:<resource id>`). */
  jobId: string;
  dueAt: string;
}

const isoTime = z.iso.datetime({ offset: true }).transform((v) => new Date(v).toISOString());

export const createTestClockSchema = z
  .object({
    frozenTime: isoTime.describe("The clock's starting time (ISO 8601)"),
    name: z.string().trim().min(1).max(100).optional(),
  })
  .strict();

export const advanceTestClockSchema = z
  .object({
    frozenTime: isoTime.describe("The clock's new time: later than its frozenTime (ISO 8601)"),
  })
  .strict();

export const testClockIdParam = z.object({ id: z.string().regex(TEST_CLOCK_ID) });

export const testClockQuerySchema = z.object({
  limit: limitQuery,
  cursor: z.string().max(2048).optional(),
});

export type CreateTestClockInput = z.output<typeof createTestClockSchema>;
export type AdvanceTestClockInput = z.output<typeof advanceTestClockSchema>;

export interface TestClockView {
  id: string;
  name: string | null;
  frozenTime: string;
  status: TestClockStatus;
  createdAt: string;
  updatedAt: string;
  deletesAfter: string;
}

export const toTestClockView = (c: TestClock): TestClockView => ({
  id: c.id,
  name: c.name,
  frozenTime: c.frozenTime,
  status: c.status,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  deletesAfter: c.deletesAfter,
});
