import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { getMail, listMail, MailSummaryView, MailView } from './mailbox';

const summaryFields = {
  id: z.string().describe('`msg_…`; ids sort by the time the message was kept'),
  to: z.string().describe('The recipient, lower-cased'),
  subject: z.string(),
  kind: z.string().nullable().describe('What the message is, e.g. `receipt`'),
  createdAt: z.iso.datetime(),
};

/** An item of GET /api/test-helpers/mail. */
export const mailSummaryResponse = z.lazy(() =>
  z
    .object(summaryFields)
    .meta({ id: 'MailSummary', description: 'A sandbox e-mail message without its body' }),
);

/** GET /api/test-helpers/mail/{id}: the whole message. */
export const mailResponse = z.lazy(() =>
  z
    .object({
      ...summaryFields,
      text: z.string().describe('The plain-text part'),
      html: z.string().nullable().describe('The HTML part'),
    })
    .meta({ id: 'Mail', description: 'A sandbox e-mail message with its text and HTML parts' }),
);

/** GET /api/test-helpers/mail: cursor pages, newest first. */
export const mailListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(mailSummaryResponse),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
    })
    .meta({ id: 'MailList', description: "A page of the seller's sandbox e-mail, newest first" }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

type _Summary = Assert<Equals<z.output<typeof mailSummaryResponse>, MailSummaryView>>;
type _Mail = Assert<Equals<z.output<typeof mailResponse>, MailView>>;
type _Get = Assert<Equals<z.output<typeof mailResponse>, Out<typeof getMail>>>;
type _List = Assert<Equals<z.output<typeof mailListResponse>, Out<typeof listMail>>>;
