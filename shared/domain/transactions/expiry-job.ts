// Apart from create.ts (which builds the sale's zod schemas at load) so that the jobs function's
// dispatch map can name the job without loading the sale at cold start.
export const EXPIRY_JOB = 'transaction-expiry';
