import * as z from 'zod';

// Route-local request shapes (./routes.ts).
export const emptyActionBody = z.object({}).strict();

/** Any text reaches the use case: a malformed token gets the same 404 as an unknown or revoked one. */
export const bookletTokenParam = z.object({ token: z.string() });
