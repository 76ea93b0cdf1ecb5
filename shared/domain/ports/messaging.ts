import type { DomainEvent } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';

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
  /** The HTML alternative, when there is one (every seller-supplied text in it escaped). */
  html?: string;
  /**
   * The tenant whose activity produced the message. A sandbox (`test`) tenant's mail never reaches
   * a real inbox: it is kept in the sandbox mailbox (docs/decisions.md, "E-mail"). Absent for mail
   * that belongs to no seller.
   */
  tenant?: Tenant;
  /** What the message is (`receipt`, …): an SES tag, a field of the kept message. */
  kind?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
