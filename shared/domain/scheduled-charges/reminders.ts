import { formatCalendarDay } from '#shared/dates';
import { billingEmailOf } from '#shared/domain/customers/customer';
import { escapeHtml, formatBrl, headerText } from '#shared/domain/mail/format';
import type { RenderedMail } from '#shared/domain/mail/templates';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { type Cycle, payUrlOf, type ScheduledCharge } from './charge';
import type { ScheduledChargeDeps } from './deps';
import type { ReminderStage } from './state';

/**
 * Reminder e-mails of a cycle (docs/decisions.md, "Scheduled charges (issue 13)"): in
 * Portuguese, to the customer's resolved billing e-mail, each stage once per due date. The due job
 * records the stage in the cycle's save and sends after it (a failed send is reported, not retried:
 * a reminder is never sent twice).
 */

export interface ReminderData {
  stage: ReminderStage;
  customerName: string;
  /** The product's name or the charge's description (seller text: escaped in the HTML). */
  itemName: string;
  /** Centavos. */
  amount: number;
  /** YYYY-MM-DD. */
  dueDate: string;
  payUrl: string;
  /** The label of the pay link's row (a carnê links the boleto's PDF). */
  payLabel?: string;
  boletoLine: string | null;
  pixCopyPaste: string | null;
  sandbox: boolean;
}

const SANDBOX_NOTE = 'Ambiente de testes: nenhuma cobrança real foi feita.';

/** `2026-03-15` → `15/03/2026`. */

const HEADLINES: Record<ReminderStage, (due: string) => { subject: string; intro: string }> = {
  before_3: (due) => ({
    subject: `Sua cobrança vence em ${due}`,
    intro: `Lembrete: a cobrança abaixo vence em ${due}.`,
  }),
  due: (due) => ({ subject: 'Sua cobrança vence hoje', intro: `A cobrança abaixo vence hoje, ${due}.` }),
  after_1: (due) => ({
    subject: 'Cobrança vencida',
    intro: `A cobrança abaixo venceu em ${due} e ainda não identificamos o pagamento.`,
  }),
  after_3: (due) => ({
    subject: 'Cobrança vencida há 3 dias',
    intro: `A cobrança abaixo venceu em ${due} e continua em aberto.`,
  }),
  after_7: (due) => ({
    subject: 'Cobrança vencida há 7 dias',
    intro: `A cobrança abaixo venceu em ${due} e continua em aberto. Regularize assim que possível.`,
  }),
};

/** The reminder of one stage: the amount, the due date, the pay link, the boleto line and the pix code when issued. */
export function chargeReminder(data: ReminderData): RenderedMail {
  const due = formatCalendarDay(data.dueDate);
  const { subject, intro } = HEADLINES[data.stage](due);
  const greeting = data.customerName.trim() ? `Olá, ${data.customerName.trim()}!` : 'Olá!';
  const rows: [string, string][] = [
    ['Referente a', data.itemName],
    ['Valor', formatBrl(data.amount)],
    ['Vencimento', due],
    [data.payLabel ?? 'Pagar agora', data.payUrl],
    ...(data.boletoLine ? ([['Linha digitável do boleto', data.boletoLine]] as [string, string][]) : []),
    ...(data.pixCopyPaste ? ([['Pix copia e cola', data.pixCopyPaste]] as [string, string][]) : []),
  ];
  const outro = 'Se você já pagou, desconsidere esta mensagem.';
  const fullSubject = headerText(`${data.sandbox ? '[TESTE] ' : ''}${subject}: ${data.itemName}`);
  const text = [
    ...(data.sandbox ? [SANDBOX_NOTE, ''] : []),
    greeting,
    '',
    intro,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    outro,
    '',
  ].join('\n');
  const cell = 'padding:4px 12px 4px 0;vertical-align:top';
  const html = [
    '<!DOCTYPE html>',
    `<html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(fullSubject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;margin:0;padding:24px">',
    data.sandbox
      ? `<p style="background:#fff4ce;padding:8px 12px;border-radius:4px">${escapeHtml(SANDBOX_NOTE)}</p>`
      : '',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    '<table style="border-collapse:collapse">',
    ...rows.map(([label, value]) => {
      const shown =
        value === data.payUrl
          ? `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>`
          : `<span style="word-break:break-all">${escapeHtml(value)}</span>`;
      return `<tr><td style="${cell};color:#666">${escapeHtml(label)}</td><td style="${cell}">${shown}</td></tr>`;
    }),
    '</table>',
    `<p>${escapeHtml(outro)}</p>`,
    '</body></html>',
  ]
    .filter(Boolean)
    .join('\n');
  return { subject: fullSubject, text, html };
}

export type ReminderDeps = Pick<
  ScheduledChargeDeps,
  'customers' | 'transactions' | 'mailer' | 'publicBaseUrl' | 'reporter'
>;

/** A reminder recorded by the due job's save, sent after it. */
export interface PendingReminder {
  cycleNumber: number;
  stage: ReminderStage;
  to: string;
}

/** The customer's resolved billing e-mail (the override, else the e-mail used with the seller). */
export async function billingEmailFor(
  deps: Pick<ScheduledChargeDeps, 'customers'>,
  charge: Pick<ScheduledCharge, 'tenant' | 'customer'>,
): Promise<{ to: string; name: string }> {
  const profile = await deps.customers.findProfileById(charge.tenant, charge.customer.id);
  return profile
    ? { to: billingEmailOf(profile), name: profile.name }
    : { to: charge.customer.email, name: charge.customer.name };
}

const issuedOf = async (deps: ReminderDeps, charge: ScheduledCharge, id: number | null) =>
  id === null ? null : deps.transactions.get(charge.tenant, id);

const pending = (t: Transaction | null) =>
  t !== null && (t.status === 'pendingPix' || t.status === 'pendingBoleto');

/** Sends the reminders the save recorded; each failure is reported and the rest still go. */
export async function sendReminders(
  deps: ReminderDeps,
  charge: ScheduledCharge,
  reminders: PendingReminder[],
): Promise<void> {
  for (const r of reminders) {
    try {
      const cycle = charge.cycles.find((c) => c.number === r.cycleNumber) as Cycle;
      const [pix, boleto] = await Promise.all([
        issuedOf(deps, charge, cycle.issued.pix),
        issuedOf(deps, charge, cycle.issued.boleto),
      ]);
      const mail = chargeReminder({
        stage: r.stage,
        customerName: charge.customer.name,
        itemName: charge.product?.name ?? charge.description ?? 'Cobrança',
        amount: cycle.amount,
        dueDate: cycle.dueDate,
        payUrl: payUrlOf(deps.publicBaseUrl, cycle.payToken),
        boletoLine: pending(boleto) ? (boleto?.boleto?.formattedLine ?? null) : null,
        pixCopyPaste: pending(pix) ? (pix?.pix?.qrCode ?? null) : null,
        sandbox: charge.tenant.environment === 'test',
      });
      await deps.mailer.send({ to: r.to, ...mail, tenant: charge.tenant, kind: 'scheduled_charge_reminder' });
    } catch (error) {
      deps.reporter.error('could not send a scheduled-charge reminder', error, { id: charge.id });
    }
  }
}
