import { formatCalendarDay } from '#shared/dates';
import { escapeHtml, formatBrl, headerText } from '#shared/domain/mail/format';
import { type RenderedMail, sellerHeaderHtml } from '#shared/domain/mail/templates';
import { type Placeholder, placeholdersOf, type ReminderStep } from './schedule';

/**
 * A step's template filled for one charge on one day. Every value comes from a seller or a
 * customer (names, the business name) or from a provider (the boleto line): the HTML escapes each
 * of them, and a line naming a boleto line or pix code not issued is left out.
 */

export interface ReminderValues {
  businessName: string;
  /** The business profile's logo and colour: the e-mail's header shows them (null: not set). */
  businessLogoUrl?: string | null;
  businessColor?: string | null;
  customerName: string;
  /** What the charge is for: the product's name or the charge's description. */
  itemName: string;
  /** Centavos: the amount due on the day the message is sent (`amountDueOn`). */
  amountDue: number;
  /** YYYY-MM-DD. */
  dueDate: string;
  payUrl: string;
  boletoLine: string | null;
  pixCopyPaste: string | null;
  /** The link that stops this channel for the customer (the preview shows an example). */
  optOutUrl: string;
  sandbox: boolean;
}

const SANDBOX_NOTE = 'Ambiente de testes: nenhuma cobrança real foi feita.';
const LINKS: Placeholder[] = ['link', 'descadastro'];
/** What a charge may not have yet: a line naming one of these without a value is left out. */
const OPTIONAL: Placeholder[] = ['linha_digitavel', 'pix_copia_e_cola'];

function valuesOf(v: ReminderValues): Record<Placeholder, string> {
  return {
    empresa: v.businessName.trim(),
    cliente: v.customerName.trim(),
    referente: v.itemName.trim(),
    valor: formatBrl(v.amountDue),
    vencimento: formatCalendarDay(v.dueDate),
    link: v.payUrl,
    linha_digitavel: v.boletoLine ?? '',
    pix_copia_e_cola: v.pixCopyPaste ?? '',
    descadastro: v.optOutUrl,
  };
}

/** The template's lines; a line naming a boleto line or a pix code the charge does not have is dropped. */
function keptLines(template: string, values: Record<string, string>): string[] {
  const missing = (p: string) => (OPTIONAL as string[]).includes(p) && (values[p] ?? '') === '';
  return template.split('\n').filter((line) => !placeholdersOf(line).some(missing));
}

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

const fillText = (line: string, values: Record<string, string>) =>
  line.replace(PLACEHOLDER, (_, name: string) => values[name] ?? '');

/** A line as HTML: the template's own text and each value escaped, the links made links. */
const fillHtml = (line: string, values: Record<string, string>) => {
  let out = '';
  let last = 0;
  for (const m of line.matchAll(PLACEHOLDER)) {
    out += escapeHtml(line.slice(last, m.index));
    const value = values[m[1]] ?? '';
    out += (LINKS as string[]).includes(m[1])
      ? `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>`
      : `<span style="word-break:break-all">${escapeHtml(value)}</span>`;
    last = (m.index ?? 0) + m[0].length;
  }
  return out + escapeHtml(line.slice(last));
};

/** The plain text of a step (the SMS, the e-mail's text part, what a WhatsApp template reads as). */
export function renderText(step: Pick<ReminderStep, 'body'>, v: ReminderValues): string {
  const values = valuesOf(v);
  return keptLines(step.body, values)
    .map((line) => fillText(line, values))
    .join('\n')
    .trim();
}

const OPT_OUT_EMAIL = 'Para não receber mais lembretes por e-mail, acesse: ';

/**
 * The e-mail of a step: the seller's subject and body under its business header (name, logo,
 * colour), the opt-out link at the foot. A text part whose template never names the seller starts
 * with its name, so no reminder reaches a customer without saying who charges.
 */
export function renderEmail(step: Pick<ReminderStep, 'subject' | 'body'>, v: ReminderValues): RenderedMail {
  const values = valuesOf(v);
  const subject = headerText(`${v.sandbox ? '[TESTE] ' : ''}${fillText(step.subject, values)}`);
  const lines = keptLines(step.body, values);
  const optOut = placeholdersOf(step.body).includes('descadastro') ? [] : [`${OPT_OUT_EMAIL}{{descadastro}}`];
  const seller = values.empresa;
  const named = !seller || lines.some((line) => fillText(line, values).includes(seller));
  const text = [
    ...(v.sandbox ? [SANDBOX_NOTE, ''] : []),
    ...(named ? [] : [seller, '']),
    ...lines.map((line) => fillText(line, values)),
    ...(optOut.length ? ['', ...optOut.map((l) => fillText(l, values))] : []),
    '',
  ].join('\n');
  const html = [
    '<!DOCTYPE html>',
    `<html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;margin:0;padding:24px">',
    v.sandbox
      ? `<p style="background:#fff4ce;padding:8px 12px;border-radius:4px">${escapeHtml(SANDBOX_NOTE)}</p>`
      : '',
    sellerHeaderHtml({
      name: seller,
      logoUrl: v.businessLogoUrl ?? null,
      brandColor: v.businessColor ?? null,
    }),
    `<p>${lines.map((line) => fillHtml(line, values)).join('<br>\n')}</p>`,
    ...optOut.map((l) => `<p style="font-size:13px;color:#555">${fillHtml(l, values)}</p>`),
    '</body></html>',
  ]
    .filter(Boolean)
    .join('\n');
  return { subject, text, html };
}

/** An SMS: the step's text, the seller named, the opt-out link at the end. */
export function renderSms(step: Pick<ReminderStep, 'body'>, v: ReminderValues): string {
  const text = renderText(step, v);
  const seller = v.businessName.trim();
  const named = !seller || text.includes(seller) ? text : `${seller}: ${text}`;
  return placeholdersOf(step.body).includes('descadastro') ? named : `${named}\nSair: ${v.optOutUrl}`;
}

/**
 * A WhatsApp template's named body parameters: each placeholder the step's body uses, in order
 * (the approved template has the same names). WhatsApp refuses a parameter with a line break, tab
 * or more than four spaces in a row, or an empty one: those are flattened, and an empty one is `-`.
 */
export function whatsappParameters(step: Pick<ReminderStep, 'body'>, v: ReminderValues) {
  const values = valuesOf(v);
  return placeholdersOf(step.body).map((name) => ({
    name,
    value: (values[name as Placeholder] ?? '').replace(/\s+/g, ' ').trim() || '-',
  }));
}
