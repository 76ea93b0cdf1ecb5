import { AsyncLocalStorage } from 'node:async_hooks';
import type { Key } from './keys';

type Item = Record<string, unknown>;
/** Sends one set of keys: GetItem for one, BatchGetItem for more (the Table's own reads). */
export type ReadSender = (keys: Key[], consistent: boolean) => Promise<Item[]>;

interface Waiter {
  keys: Key[];
  resolve(items: Item[]): void;
  reject(error: unknown): void;
}

interface Pending {
  keys: Map<string, Key>;
  consistent: boolean;
  waiters: Waiter[];
  send: ReadSender;
}

const id = (k: Key) => `${k.pk}\u0000${k.sk}`;

/**
 * The key reads one request starts together, per table. The first read schedules the flush on
 * setImmediate: reads started by the same Promise.all (and by any continuation of already settled
 * promises) join it, and go as one BatchGetItem. A read started after the flush opens the next.
 */
class ReadBatch {
  private readonly pending = new Map<object, Pending>();

  read(owner: object, keys: Key[], consistent: boolean, send: ReadSender): Promise<Item[]> {
    let batch = this.pending.get(owner);
    if (!batch) {
      const opened: Pending = { keys: new Map(), consistent: false, waiters: [], send };
      batch = opened;
      this.pending.set(owner, opened);
      setImmediate(() => this.flush(owner, opened));
    }
    for (const k of keys) batch.keys.set(id(k), { pk: k.pk, sk: k.sk });
    // One consistent reader makes the whole batch consistent: stronger than asked is still right.
    batch.consistent ||= consistent;
    const waiters = batch.waiters;
    return new Promise((resolve, reject) => waiters.push({ keys, resolve, reject }));
  }

  private flush(owner: object, batch: Pending): void {
    this.pending.delete(owner);
    batch.send([...batch.keys.values()], batch.consistent).then(
      (items) => {
        const byKey = new Map(items.map((item) => [id(item as unknown as Key), item]));
        for (const w of batch.waiters)
          w.resolve(w.keys.flatMap((k) => (byKey.has(id(k)) ? [byKey.get(id(k)) as Item] : [])));
      },
      (error: unknown) => {
        for (const w of batch.waiters) w.reject(error);
      },
    );
  }
}

/**
 * The writes staged inside `atomically`, for one table: the Table that staged the first sends them
 * all (Table.write), when the work returns.
 */
class WriteSet<Part = unknown> {
  private owner: object | undefined;
  private send: ((parts: Part[]) => Promise<void>) | undefined;
  private readonly parts: Part[] = [];
  private closed = false;

  stage(owner: object, part: Part, send: (parts: Part[]) => Promise<void>): void {
    // A write that lands after the commit would be lost or sent alone: both break all-or-nothing.
    if (this.closed)
      throw new Error('a write was staged after its unit of work ended: await it inside atomically');
    if (this.owner && this.owner !== owner) throw new Error('one unit of work writes to one table');
    this.owner = owner;
    this.send = send;
    this.parts.push(part);
  }

  async commit(): Promise<void> {
    this.closed = true;
    if (this.send && this.parts.length > 0) await this.send(this.parts);
  }

  discard(): void {
    this.closed = true;
  }
}

/** One request's or one job's work against the table: the reads it starts together, and the writes it stages. */
class UnitOfWork {
  constructor(
    readonly reads = new ReadBatch(),
    readonly writes?: WriteSet,
  ) {}
}

const scope = new AsyncLocalStorage<UnitOfWork>();

/**
 * Runs `work` (one route's handler, one job, one consumed message) as one unit of work: the key
 * reads (Table.get, Table.batchGet) it starts together are sent as one BatchGetItem, so a use case
 * that reads its items with Promise.all through its ports pays one round trip for them. The HTTP
 * pipeline and the job runners enter it (through the container); use cases never see it. Only this
 * unit's reads join: the scope is per call. An `atomically` around it keeps staging its writes.
 */
export function inUnitOfWork<T>(work: () => Promise<T>): Promise<T> {
  return scope.run(new UnitOfWork(new ReadBatch(), scope.getStore()?.writes), work);
}

/**
 * The domain's Atomically port: the writes `work` makes through the repositories (each a
 * Table.write) are staged, and sent when it returns as one TransactWriteItems, all or nothing. A
 * failed condition is thrown as the ConflictError of the repository whose entry failed; nothing is
 * written. Work that throws writes nothing. Inside another `atomically` it joins that one. Reads
 * still batch as in the enclosing unit of work.
 */
export async function atomically<T>(work: () => Promise<T>): Promise<T> {
  const outer = scope.getStore();
  if (outer?.writes) return work();
  const writes = new WriteSet();
  let result: T;
  try {
    result = await scope.run(new UnitOfWork(outer?.reads ?? new ReadBatch(), writes), work);
  } catch (error) {
    writes.discard();
    throw error;
  }
  await writes.commit();
  return result;
}

/** The read batch of the open unit of work, if the caller runs inside one. */
export const currentReadBatch = (): ReadBatch | undefined => scope.getStore()?.reads;

/** The staged writes of the open `atomically`, if the caller runs inside one. */
export const currentWrites = <Part>(): WriteSet<Part> | undefined =>
  scope.getStore()?.writes as WriteSet<Part> | undefined;
