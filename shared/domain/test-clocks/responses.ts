import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { TestClockView } from './test-clock';
import type { deleteTestClock } from './test-clocks';

const fields = {
  id: z.string().describe('`clock_…`'),
  name: z.string().nullable(),
  frozenTime: z.iso.datetime().describe("The clock's time: the business time of the customers on it"),
  status: z
    .enum(['ready', 'advancing'])
    .describe('`advancing` while an advance runs the due work on the clock; `ready` otherwise'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  deletesAfter: z.iso
    .datetime()
    .describe(
      'When the clock deletes itself (30 days after its creation), as DELETE does: what lived on it stays, frozen',
    ),
};

/** A test clock: POST, GET, the items of the list and the advance's answer. */
export const testClockResponse = z.lazy(() =>
  z.object(fields).meta({ id: 'TestClock', description: 'A sandbox test clock' }),
);

/** GET /api/test-helpers/test-clocks: cursor pages. */
export const testClockListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(testClockResponse),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
    })
    .meta({ id: 'TestClockList', description: "A page of the seller's test clocks" }),
);

/** DELETE /api/test-helpers/test-clocks/{id}. */
export const testClockDeletedResponse = z.lazy(() =>
  z
    .object({ id: z.string(), deleted: z.literal(true) })
    .meta({ id: 'TestClockDeleted', description: 'A test clock deleted' }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type _View = Assert<Equals<z.output<typeof testClockResponse>, TestClockView>>;
type _Deleted = Assert<Equals<z.output<typeof testClockDeletedResponse>, Out<typeof deleteTestClock>>>;
