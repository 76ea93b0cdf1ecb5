export interface HealthRepository {
  /** A real read of the table. */
  ping(signal: AbortSignal): Promise<void>;
  readHeartbeat(): Promise<{ lastRunAt: Date; runs: number } | null>;
  writeHeartbeat(at: Date): Promise<void>;
}
