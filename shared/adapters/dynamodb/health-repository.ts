import type { HealthRepository } from '#shared/domain/ports';
import { keys } from './keys';
import type { Table } from './table';

export function createHealthRepository(table: Table): HealthRepository {
  return {
    async ping(signal) {
      await table.get(keys.healthProbe(), { signal });
    },
    async readHeartbeat() {
      const item = await table.get<{ lastRunAt?: string; runs?: number }>(keys.heartbeat(), {
        consistent: true,
      });
      return item?.lastRunAt ? { lastRunAt: new Date(item.lastRunAt), runs: Number(item.runs ?? 0) } : null;
    },
    async writeHeartbeat(at) {
      await table.update({
        Key: keys.heartbeat(),
        UpdateExpression: 'SET lastRunAt = :at, entity = :entity, #ver = :one ADD runs :one',
        ExpressionAttributeNames: { '#ver': 'version' },
        ExpressionAttributeValues: { ':at': at.toISOString(), ':entity': 'heartbeat', ':one': 1 },
      });
    },
  };
}
