import { describe, expect, it } from 'vitest';
import { formatCalendarDay } from '#shared/dates';
import { chargeReminder, type ReminderData } from '#shared/domain/scheduled-charges/reminders';
import { REMINDER_STAGES } from '#shared/domain/scheduled-charges/state';

const data: ReminderData = {
  stage: 'before_3',
  customerName: 'Ana <script>',
  itemName: 'Mensalidade "A&B"',
  amount: 123456,
  dueDate: '2026-03-05',
  payUrl: 'https://pay.example/cobranca/cob_x?a=1&b=2',
  boletoLine: '34191.79001 01043.510047 91020.150008 1 92340000123456',
  pixCopyPaste: '00020126<pix>',
  sandbox: false,
};

describe('chargeReminder', () => {
  it('writes the amount in R$, the date as dd/mm/aaaa, the link, the boleto line and the pix code', () => {
    const mail = chargeReminder(data);
    expect(mail.subject).toBe('Sua cobrança vence em 05/03/2026: Mensalidade "A&B"');
    expect(mail.text).toContain('Valor: R$ 1.234,56');
    expect(mail.text).toContain('Vencimento: 05/03/2026');
    expect(mail.text).toContain('Pagar agora: https://pay.example/cobranca/cob_x?a=1&b=2');
    expect(mail.text).toContain('Linha digitável do boleto: 34191.79001');
    expect(mail.text).toContain('Pix copia e cola: 00020126<pix>');
  });

  it('escapes every seller and buyer text in the HTML part', () => {
    const { html } = chargeReminder(data);
    expect(html).not.toContain('<script>');
    expect(html).toContain('Ana &lt;script&gt;');
    expect(html).toContain('Mensalidade &quot;A&amp;B&quot;');
    expect(html).toContain('href="https://pay.example/cobranca/cob_x?a=1&amp;b=2"');
    expect(html).toContain('00020126&lt;pix&gt;');
  });

  it('has a subject per stage, a test marker in the sandbox, and leaves out what was not issued', () => {
    const subjects = REMINDER_STAGES.map(
      (s) => chargeReminder({ ...data, stage: s.stage }).subject.split(':')[0],
    );
    expect(subjects).toEqual([
      'Sua cobrança vence em 05/03/2026',
      'Sua cobrança vence hoje',
      'Cobrança vencida',
      'Cobrança vencida há 3 dias',
      'Cobrança vencida há 7 dias',
    ]);
    const sandbox = chargeReminder({ ...data, sandbox: true, boletoLine: null, pixCopyPaste: null });
    expect(sandbox.subject.startsWith('[TESTE] ')).toBe(true);
    expect(sandbox.text).toContain('Ambiente de testes');
    expect(sandbox.text).not.toContain('boleto');
    expect(sandbox.text).not.toContain('Pix copia e cola');
    expect(formatCalendarDay('2027-12-31')).toBe('31/12/2027');
  });
});
