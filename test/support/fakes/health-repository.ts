import type { HealthRepository } from '#shared/domain/ports';

/**
 * The cron heartbeat in memory: every write stamps the time and counts one run. `failWith` makes
 * ping reject (the database outage); an aborted signal rejects with its reason, as the SDK does.
 */
export class FakeHealthRepository implements HealthRepository {
  heartbeat: { lastRunAt: Date; runs: number } | null = null;
  failWith: Error | null = null;
  pings = 0;

  async ping(signal: AbortSignal): Promise<void> {
    this.pings++;
    signal.throwIfAborted();
    if (this.failWith) throw this.failWith;
  }

  async readHeartbeat(): Promise<{ lastRunAt: Date; runs: number } | null> {
    return this.heartbeat
      ? { lastRunAt: new Date(this.heartbeat.lastRunAt), runs: this.heartbeat.runs }
      : null;
  }

  async writeHeartbeat(at: Date): Promise<void> {
    this.heartbeat = { lastRunAt: new Date(at), runs: (this.heartbeat?.runs ?? 0) + 1 };
  }
}
