import * as z from 'zod';

// Route-local request shapes (./routes.ts).
export const listApiKeysQuery = z.object({ environment: z.enum(['test', 'live']).optional() });
