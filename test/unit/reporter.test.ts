import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logReporter, reportingTo } from '#shared/adapters/system/reporter';
import { configureLogs, createLogger } from '#shared/logger';

let lines: Record<string, unknown>[];

beforeEach(() => {
  lines = [];
  configureLogs({ sink: (line) => lines.push(JSON.parse(line)), level: 'debug' });
});

afterEach(() => {
  configureLogs({ sink: (line) => process.stdout.write(`${line}\n`), level: 'info' });
});

describe('logReporter', () => {
  it('writes one error line with what failed, the error and the context', () => {
    const reporter = logReporter(createLogger({ service: 'jobs' }));

    reporter.error('could not schedule a due job', new Error('throttled'), {
      job: 'subscription-due',
      id: '7:test:1',
    });

    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'could not schedule a due job',
        service: 'jobs',
        job: 'subscription-due',
        id: '7:test:1',
        error: expect.objectContaining({ name: 'Error', message: 'throttled' }),
      }),
    ]);
  });

  it('never writes a secret the error or the context carries', () => {
    const reporter = logReporter(createLogger());

    reporter.error('could not save the card', new Error('refused sk_test_abc123 for the key'), {
      token: 'tok_secret',
    });

    const line = JSON.stringify(lines);
    expect(line).not.toContain('sk_test_abc123');
    expect(line).not.toContain('tok_secret');
  });

  it("reports to the request's log inside reportingTo, and to its own log outside it", async () => {
    const reporter = logReporter(createLogger({ service: 'payment-service' }));
    const request = createLogger({ requestId: 'req-1', route: 'POST /api/transactions' });

    await reportingTo(request, async () => {
      await Promise.resolve();
      reporter.error('could not schedule the pix expiry', new Error('throttled'), { id: 12 });
    });
    reporter.error('could not run a due job', new Error('throttled'));

    expect(lines.map((l) => [l.message, l.requestId, l.route])).toEqual([
      ['could not schedule the pix expiry', 'req-1', 'POST /api/transactions'],
      ['could not run a due job', undefined, undefined],
    ]);
  });
});
