import type { MailSummary, StoredMail } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { keys } from '../keys';
import type { Item } from '../table';
import { defineEntity } from './entity';

/** Sandbox mail is kept 30 days, like delivery logs; the marker of a sent message as long. */
export const MAIL_RETENTION_SECONDS = 30 * 86_400;

export const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** A message the sandbox mailbox keeps: always a test tenant's. */
export type KeptMail = StoredMail & { tenant: Tenant };

/** What both the message and its copy under the recipient hold. */
const summaryAttributes = (mail: KeptMail): Item => ({
  id: mail.id,
  sellerId: mail.tenant.sellerId,
  environment: mail.tenant.environment,
  to: mail.to,
  subject: mail.subject,
  kind: mail.kind ?? undefined,
  createdAt: mail.createdAt,
  ttl: epochSeconds(mail.createdAt) + MAIL_RETENTION_SECONDS,
});

const toSummary = (item: Item): MailSummary => ({
  id: String(item.id),
  tenant: { sellerId: Number(item.sellerId), environment: item.environment as Tenant['environment'] },
  to: String(item.to),
  subject: String(item.subject),
  kind: (item.kind as string | undefined) ?? null,
  createdAt: String(item.createdAt),
});

/** A test tenant's sandbox message, in the tenant's partition (`MAIL#<id>`), with its body. */
export const sandboxMailEntity = defineEntity({
  entity: 'sandbox-mail',
  version: 1,
  key: (mail: KeptMail) => keys.mail(mail.tenant, mail.id),
  patterns: {},
  attributes: (mail) => ({ ...summaryAttributes(mail), text: mail.text, html: mail.html ?? undefined }),
  fromItem: (item): StoredMail => ({
    ...toSummary(item),
    text: String(item.text ?? ''),
    html: (item.html as string | undefined) ?? null,
  }),
});

/** The body-less copy of a message under its recipient, so the mailbox lists one address by prefix. */
export const sandboxMailToEntity = defineEntity({
  entity: 'sandbox-mail-to',
  version: 1,
  key: (mail: KeptMail) => keys.mailTo(mail.tenant, mail.to, mail.id),
  patterns: {},
  attributes: summaryAttributes,
  fromItem: toSummary,
});

/** A message that must go out once, claimed while it is sent. */
export interface MailClaim {
  key: string;
  claimedAt: string;
  leaseUntil: string;
}

/**
 * The marker of a message that must go out once: claimed (`sending`, with a lease) before the send,
 * `sent` after it by an update; kept as long as sandbox mail.
 */
export const mailLogEntity = defineEntity({
  entity: 'mail-log',
  version: 1,
  key: (claim: MailClaim) => keys.mailLog(claim.key),
  patterns: {},
  attributes: (claim) => ({
    state: 'sending',
    claimedAt: claim.claimedAt,
    leaseUntil: claim.leaseUntil,
    ttl: epochSeconds(claim.claimedAt) + MAIL_RETENTION_SECONDS,
  }),
  fromItem: (item) => ({
    state: item.state === 'sent' ? ('sent' as const) : ('sending' as const),
    claimedAt: String(item.claimedAt),
    leaseUntil: String(item.leaseUntil),
    sentAt: (item.sentAt as string | undefined) ?? null,
  }),
});
