/**
 * The ports use cases depend on. Adapters live in shared/adapters/<service>/; the local
 * runtime has its own implementations under infra/local/. Domain code imports only this file.
 */

export interface Clock {
  now(): Date;
}

export interface Ids {
  uuid(): string;
  /** `prefix_` followed by random base62 characters from a CSPRNG. */
  prefixed(prefix: string, length?: number): string;
}

export interface ScheduledJob {
  job: string;
  id: string;
}

export interface Scheduler {
  /** Creates a one-time schedule that invokes the jobs function with `payload` at `at`. */
  scheduleAt(name: string, at: Date, payload: ScheduledJob): Promise<void>;
  cancel(name: string): Promise<void>;
}

export interface QueueMessage {
  body: string;
  delaySeconds?: number;
}

export interface Queue {
  send(message: QueueMessage): Promise<void>;
}

export interface BusEvent {
  source: string;
  detailType: string;
  detail: unknown;
}

export interface EventBus {
  put(events: BusEvent[]): Promise<void>;
}

export type GatewayHealth = {
  status: 'healthy' | 'unhealthy';
  provider: string;
  latencyMs: number;
  detail?: string;
};

export interface PaymentGateway {
  readonly provider: string;
  health(): Promise<GatewayHealth>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
