import type { TestClock } from '#shared/domain/test-clocks/test-clock';
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
  'version',
] as const;

/**
 * A sandbox seller's test clock, in its tenant partition (listed by a prefix query); `version` is
 * its optimistic lock. The work on it is found through the due entities' `byTestClock` pattern.
 */
export const testClockEntity = defineEntity({
  entity: 'test-clock',
  key: (c: TestClock) => keys.testClock(c.tenant, c.id),
  patterns: {},
  attributes: (c) => tenantAttributes(c, TEST_CLOCK_FIELDS),
  fromItem: (item) => fromTenantAttributes<TestClock>(item, TEST_CLOCK_FIELDS),
});
