import { AsyncLocalStorage } from 'node:async_hooks';
import { inOneOutboxBatch } from './outbox';

/**
 * One fake repository's write, split as the adapter's TransactWriteItems entry is: `check` throws
 * what the adapter's failed condition turns into (it may wait: a staged concurrent change runs
 * first, as the fakes' `before…` hooks do), `apply` stores.
 */
export interface FakeWrite {
  check(): void | Promise<void>;
  apply(): void;
}

const scope = new AsyncLocalStorage<{ writes: FakeWrite[]; closed: boolean }>();

/**
 * As Table.write: outside `fakeAtomically` the write is checked and stored now; inside, it is
 * staged and checked and stored with the unit's other writes when the work returns.
 */
export async function writeOrStage(write: FakeWrite): Promise<void> {
  const unit = scope.getStore();
  if (!unit) {
    await write.check();
    write.apply();
    return;
  }
  if (unit.closed)
    throw new Error('a write was staged after its unit of work ended: await it inside atomically');
  unit.writes.push(write);
}

/**
 * The in-memory Atomically, all or nothing across every fake repository: each staged write's
 * condition first (in the order they were made), then all of them stored; a failed condition or
 * work that throws stores none. Inside another one it joins that one.
 */
export async function fakeAtomically<T>(work: () => Promise<T>): Promise<T> {
  if (scope.getStore()) return work();
  const unit = { writes: [] as FakeWrite[], closed: false };
  try {
    const result = await scope.run(unit, work);
    unit.closed = true;
    for (const write of unit.writes) await write.check();
    inOneOutboxBatch(() => {
      for (const write of unit.writes) write.apply();
    });
    return result;
  } finally {
    unit.closed = true;
  }
}
