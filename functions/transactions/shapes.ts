import * as z from 'zod';

// Route-local request shapes, loaded with the group's use cases on its first request (./routes.ts
// names them through lazySchemas), so that the route table, which every cold start loads, loads no zod.
export const boletoTokenQuery = z.object({ token: z.string().max(128).optional() });
