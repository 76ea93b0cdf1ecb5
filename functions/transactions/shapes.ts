import * as z from 'zod';

// Route-local request shapes (./routes.ts).
export const boletoTokenQuery = z.object({ token: z.string().max(128).optional() });
