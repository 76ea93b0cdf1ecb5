import type { TestClock } from '#shared/domain/test-clocks/test-clock';
import { dueSortKey } from '../due-buckets';
import { keys } from '../keys';
import { fromTenantAttributes, tenantAttributes } from '../tenant-fields';
import { defineEntity } from './entity';

const TEST_CLOCK_FIELDS = [
  'id',
  'name',
  'frozenTime',
  'status',
  'advancingTo',
  'createdAt',
  'updatedAt',
  'deletesAfter',
  'version',
] as const;

/**
 * A sandbox seller's test clock, in its tenant partition (listed by a prefix query); `version` is
 * its optimistic lock. The work on it is found through the due entities' `byTestClock` pattern; the
 * clock itself, once past its `deletesAfter`, through `byDeletionHour`.
 */
export const testClockEntity = defineEntity({
  entity: 'test-clock',
  key: (c: TestClock) => keys.testClock(c.tenant, c.id),
  patterns: {
    byDeletionHour: {
      index: 'gsi3',
      doc: "`DUE#CLOCK#<YYYY-MM-DDTHH>` / `<deletesAfter>#<job id>`: test clocks by the hour they delete themselves (the heartbeat's sweep)",
      at: (c) => ({
        pk: keys.testClockDeletionBucket(c.deletesAfter),
        sk: dueSortKey(c.deletesAfter, c.tenant, c.id),
      }),
    },
  },
  attributes: (c) => tenantAttributes(c, TEST_CLOCK_FIELDS),
  fromItem: (item) => fromTenantAttributes<TestClock>(item, TEST_CLOCK_FIELDS),
});
