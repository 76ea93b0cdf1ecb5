import type { Deps } from '#shared/domain/deps';
import type { Mailer, MailMessage, MailStore, StoredMail } from '#shared/domain/ports';

/** `msg_` + the time kept (9 base-36 digits of epoch ms) + 16 random base62: ids sort by time. */
export const MAIL_ID = /^msg_[0-9a-z]{9}[A-Za-z0-9]{16}$/;

export function newMailId(deps: Pick<Deps, 'ids'>, at: Date): string {
  const time = at.getTime().toString(36).padStart(9, '0');
  const random = deps.ids.prefixed('msg', 16).slice('msg_'.length);
  return `msg_${time}${random}`;
}

/** The message as kept: stamped with an id and the time, the recipient lower-cased. */
export function toStoredMail(deps: Pick<Deps, 'ids' | 'clock'>, message: MailMessage): StoredMail {
  const now = deps.clock.now();
  return {
    id: newMailId(deps, now),
    tenant: message.tenant ?? null,
    to: message.to.trim().toLowerCase(),
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    kind: message.kind ?? null,
    createdAt: now.toISOString(),
  };
}

/** A Mailer that keeps every message in a mailbox instead of sending it. */
export function keepingMailer(deps: Pick<Deps, 'ids' | 'clock'> & { store: MailStore }): Mailer {
  return { send: (message) => deps.store.keep(toStoredMail(deps, message)) };
}

/**
 * Where a message goes. A sandbox tenant's mail is kept in the sandbox mailbox, never sent: as in
 * Stripe's test mode, a test payment made with a real buyer's address must not e-mail that buyer.
 * Live tenants' mail, and mail of no tenant, goes to the live mailer (SES on AWS; locally that is
 * the mailbox too).
 */
export function routeMail(deps: { sandbox: Mailer; live: Mailer }): Mailer {
  return {
    send: (message) =>
      message.tenant?.environment === 'test' ? deps.sandbox.send(message) : deps.live.send(message),
  };
}
