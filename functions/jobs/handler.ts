import * as z from 'zod';
import { runJob } from '#shared/jobs';
import { getContainer } from '#shared/platform/container';
import { parseInput } from '#shared/validation';

const jobSchema = z.object({ job: z.string().min(1), id: z.string().default('') });

/** Target of every EventBridge Scheduler schedule (one-time `at()` jobs and the `rate()` heartbeat). */
export const handler = async (event: unknown) => runJob(getContainer(), parseInput(jobSchema, event));
