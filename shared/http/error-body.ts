import * as z from 'zod';

/** The one error body every answer of 400 or more carries (built by toErrorBody in shared/errors.ts). */
export const errorBodySchema = z
  .object({
    statusCode: z.number().int().min(400).max(599),
    message: z.union([z.string(), z.array(z.string())]),
    code: z.string(),
    timestamp: z.string(),
    path: z.string(),
  })
  .strict()
  .meta({
    id: 'ErrorBody',
    description: 'Every error answer: validation failures give message as one sentence per field.',
  });
