import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOB_RUN_LOG, jobHandlers, runJob } from '#shared/jobs';
import { configureLogs } from '#shared/logger';
import type { Container } from '#shared/platform/container';
import { FakeClock } from '../support/fakes/clock';

const NOW = '2026-03-10T15:00:30.000Z';
let clock: FakeClock;
let lines: Record<string, unknown>[];
const deps = () => ({ clock, unitOfWork: <T>(work: () => Promise<T>) => work() }) as unknown as Container;
const jobLines = () => lines.filter((l) => l.message === JOB_RUN_LOG);

beforeEach(() => {
  clock = new FakeClock(NOW);
  lines = [];
  configureLogs({ sink: (line) => lines.push(JSON.parse(line)), level: 'debug' });
  // A job that takes 1.5 s on the clock and answers something customer-shaped.
  jobHandlers['test-succeeds'] = async () => {
    clock.advanceSeconds(1.5);
    return { email: 'ana@example.com' };
  };
  jobHandlers['test-fails'] = async () => {
    clock.advanceSeconds(2);
    throw new Error('provider unavailable');
  };
});

afterEach(() => {
  delete jobHandlers['test-succeeds'];
  delete jobHandlers['test-fails'];
  configureLogs({ sink: (line) => process.stdout.write(`${line}\n`), level: 'info' });
});

describe('the log line of a job run', () => {
  it('has the job, id, due time, lag behind it, outcome and duration, and not the result', async () => {
    await runJob(deps(), { job: 'test-succeeds', id: 'pay_1', dueAt: '2026-03-10T15:00:00Z' });

    expect(jobLines()).toEqual([
      expect.objectContaining({
        level: 'info',
        job: 'test-succeeds',
        id: 'pay_1',
        dueAt: '2026-03-10T15:00:00.000Z',
        lagMs: 30_000,
        outcome: 'succeeded',
        durationMs: 1_500,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('ana@example.com');
  });

  it('logs a failed run as an error and still throws, so the scheduler retries it', async () => {
    await expect(
      runJob(deps(), { job: 'test-fails', id: 'sub_9', dueAt: '2026-03-10T15:00:30.250Z' }),
    ).rejects.toThrow('provider unavailable');

    expect(jobLines()).toEqual([
      expect.objectContaining({
        level: 'error',
        job: 'test-fails',
        id: 'sub_9',
        lagMs: -250,
        outcome: 'failed',
        durationMs: 2_000,
        error: expect.objectContaining({ message: 'provider unavailable' }),
      }),
    ]);
  });

  it('leaves dueAt and lagMs out when the due time is unknown or unreadable', async () => {
    await runJob(deps(), { job: 'test-succeeds', id: 'a' });
    await runJob(deps(), { job: 'test-succeeds', id: 'b', dueAt: '<aws.scheduler.scheduled-time>' });

    for (const line of jobLines()) {
      expect(line).not.toHaveProperty('dueAt');
      expect(line).not.toHaveProperty('lagMs');
      expect(line).toMatchObject({ outcome: 'succeeded', durationMs: 1_500 });
    }
    expect(jobLines()).toHaveLength(2);
  });

  it('answers an unknown job without running anything and logs it once', async () => {
    await expect(runJob(deps(), { job: 'no-such-job', id: 'x' })).resolves.toEqual({ skipped: true });

    expect(jobLines()).toEqual([
      expect.objectContaining({
        level: 'error',
        job: 'no-such-job',
        id: 'x',
        outcome: 'unknown-job',
        durationMs: 0,
      }),
    ]);
  });
});
