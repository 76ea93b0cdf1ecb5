import * as z from 'zod';

// What every schedule sends the jobs function. dueAt is Scheduler's <aws.scheduler.scheduled-time>,
// filled in by every schedule's input; it is optional so a job invoked by hand still runs (without a
// lag). Loaded with the jobs on the first job (functions/jobs/run.ts), not at cold start.
export const jobInputSchema = z.object({
  job: z.string().min(1),
  id: z.string().default(''),
  dueAt: z.string().optional(),
});
