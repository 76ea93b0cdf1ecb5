import type { DomainEvent } from '#shared/domain/events/events';

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

/** Writes events on their own, for changes that live outside the table (test helpers). */
export interface EventOutbox {
  write(events: DomainEvent[]): Promise<void>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
