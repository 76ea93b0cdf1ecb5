import * as z from 'zod';
import { textField } from '#shared/validation';

// Apart from ./api-keys.ts, which authentication loads at every cold start: the schema (and zod)
// load with the api-keys group's use cases on its first request.
export const createApiKeySchema = z
  .object({
    name: textField('name', { max: 100, trim: true }),
    environment: z.enum(['test', 'live'], { error: 'environment must be one of: test, live' }),
    permissions: z
      .enum(['write', 'read'], { error: 'permissions must be one of: write, read' })
      .default('write'),
  })
  .strict();
