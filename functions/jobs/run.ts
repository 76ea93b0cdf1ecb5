import { jobInputSchema } from '#shared/job-input';
import { runJob } from '#shared/jobs';
import { parseInput } from '#shared/parse-input';
import type { Container } from '#shared/platform/container';

/** Parses what the scheduler sent and runs that job. */
export const runScheduledJob = (container: Container, event: unknown) =>
  runJob(container, parseInput(jobInputSchema, event));
