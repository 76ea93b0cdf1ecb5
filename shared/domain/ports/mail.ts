import type { Tenant } from '#shared/domain/tenant';

/** A message kept instead of sent: a sandbox tenant's mail on AWS, every message locally. */
export interface StoredMail {
  /** `msg_…`, sortable by the time it was kept. */
  id: string;
  tenant: Tenant | null;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  kind: string | null;
  createdAt: string;
}

export interface MailboxQuery {
  /** Only messages to this address (compared case-insensitively). */
  to?: string;
  limit: number;
  cursor?: string;
}

/** A kept message without its body: what a list shows. */
export type MailSummary = Omit<StoredMail, 'text' | 'html'>;

/** A page of kept messages, newest first; `cursor` is absent on the last page. */
export interface MailboxPage {
  items: MailSummary[];
  cursor?: string;
}

/** What the sandbox test helper reads. Another tenant's message is simply not there. */
export interface MailboxReader {
  list(tenant: Tenant, query: MailboxQuery): Promise<MailboxPage>;
  get(tenant: Tenant, id: string): Promise<StoredMail | null>;
}

/** Keeps a message (the sandbox mailbox table items on AWS, the mail folder locally). */
export interface MailStore {
  keep(mail: StoredMail): Promise<void>;
}

/** The sandbox mailbox: written by the routing mailer, read by the test helper. */
export interface Mailbox extends MailStore, MailboxReader {}

/**
 * One marker per message that must go out once (a receipt per event id). `claim` throws
 * ConflictError (`already_exists`) when the message was sent, or another attempt holds an unexpired
 * lease on it; a lease that expired (the attempt died mid-way) can be claimed again.
 */
export interface MailLog {
  claim(key: string, now: Date, leaseSeconds: number): Promise<void>;
  /** The message went out: the marker stays (for its retention) and can no longer be claimed. */
  markSent(key: string, now: Date): Promise<void>;
  /** Sending failed: drop an unsent claim so the event's retry may send. */
  release(key: string): Promise<void>;
}
