import * as z from 'zod';

// Route-local request shapes (./routes.ts).
export const emptyActionBody = z.object({}).strict();
