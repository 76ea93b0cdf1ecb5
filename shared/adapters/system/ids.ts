import { randomUUID } from 'node:crypto';
import type { Ids } from '#shared/domain/ports';
import { randomBase62 } from '#shared/ids';

export const cryptoIds: Ids = {
  uuid: () => randomUUID(),
  prefixed: (prefix, length = 24) => `${prefix}_${randomBase62(length)}`,
};
