import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { limitQuery } from '#shared/domain/paging';
import type { MailSummary, StoredMail } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import { MAIL_ID } from './delivery';
import { MAIL_NOT_FOUND } from './not-found';

/**
 * The sandbox test helper's reads of the mailbox: a tenant sees the mail its own sales produced
 * and nothing else (another tenant's message answers exactly like a missing one).
 */
export { MAIL_NOT_FOUND };

export const mailQuerySchema = z.object({
  to: z.email().max(254).optional(),
  limit: limitQuery,
  cursor: z.string().max(2048).optional(),
});

/** `{id}` of a message: anything else names no message (404 before any read). */
export const mailIdParam = z.object({ id: z.string().regex(MAIL_ID) });

export interface MailSummaryView {
  id: string;
  to: string;
  subject: string;
  kind: string | null;
  createdAt: string;
}

export interface MailView extends MailSummaryView {
  text: string;
  html: string | null;
}

export const toMailSummary = (m: MailSummary): MailSummaryView => ({
  id: m.id,
  to: m.to,
  subject: m.subject,
  kind: m.kind,
  createdAt: m.createdAt,
});

export const toMailView = (m: StoredMail): MailView => ({ ...toMailSummary(m), text: m.text, html: m.html });

export async function listMail(
  deps: Pick<Deps, 'mailbox'>,
  tenant: Tenant,
  query: z.output<typeof mailQuerySchema>,
) {
  const page = await deps.mailbox.list(tenant, {
    to: query.to?.toLowerCase(),
    limit: query.limit,
    cursor: query.cursor,
  });
  return { data: page.items.map(toMailSummary), nextCursor: page.cursor ?? null };
}

export async function getMail(deps: Pick<Deps, 'mailbox'>, tenant: Tenant, id: string) {
  const mail = await deps.mailbox.get(tenant, id);
  if (!mail) throw new NotFoundError(MAIL_NOT_FOUND);
  return toMailView(mail);
}
