import { describe, expect, it } from 'vitest';
import {
  type ReminderValues,
  renderEmail,
  renderSms,
  whatsappParameters,
} from '#shared/domain/reminders/render';
import { DEFAULT_SCHEDULE, type ReminderStep } from '#shared/domain/reminders/schedule';

const values: ReminderValues = {
  businessName: 'Padaria <Pão & Cia>',
  customerName: 'Ana <script>',
  itemName: 'Mensalidade "A&B"',
  amountDue: 123456,
  dueDate: '2026-03-05',
  payUrl: 'https://pay.example/cobranca/cob_x?a=1&b=2',
  boletoLine: '34191.79001 01043.510047 91020.150008 1 92340000123456',
  pixCopyPaste: '00020126<pix>',
  optOutUrl: 'https://pay.example/descadastro/optout_abc',
  sandbox: false,
};
const [before3, due, after1, after3, after7] = DEFAULT_SCHEDULE.steps;

describe('renderEmail', () => {
  it('writes the amount due in R$, the date as dd/mm/aaaa, the link, the boleto line, the pix code and the seller', () => {
    const mail = renderEmail(before3, values);
    expect(mail.subject).toBe('Sua cobrança vence em 05/03/2026: Mensalidade "A&B"');
    expect(mail.text).toContain('Lembrete: a cobrança de Padaria <Pão & Cia> vence em 05/03/2026.');
    expect(mail.text).toContain('Olá, Ana <script>!');
    expect(mail.text).toContain('Referente a: Mensalidade "A&B"');
    expect(mail.text).toContain('Valor: R$ 1.234,56');
    expect(mail.text).toContain('Vencimento: 05/03/2026');
    expect(mail.text).toContain('Pagar agora: https://pay.example/cobranca/cob_x?a=1&b=2');
    expect(mail.text).toContain('Linha digitável do boleto: 34191.79001');
    expect(mail.text).toContain('Pix copia e cola: 00020126<pix>');
    expect(mail.text).toContain(
      'Para não receber mais lembretes por e-mail, acesse: https://pay.example/descadastro/optout_abc',
    );
  });

  it("heads the e-mail with the seller's logo, name and colour, and names the seller in a text that does not", () => {
    const step: ReminderStep = { ...due, body: 'Olá, {{cliente}}! Pague {{valor}} em {{link}}.' };
    const branded = { ...values, businessLogoUrl: 'https://cdn.example/logo.png', businessColor: '#9a3412' };
    const mail = renderEmail(step, branded);
    expect(mail.html).toContain(
      '<p style="border-top:6px solid #9a3412;padding-top:12px;margin:0 0 16px;font-size:18px;font-weight:bold">' +
        '<img src="https://cdn.example/logo.png" alt="" height="40" style="vertical-align:middle;margin-right:10px">' +
        'Padaria &lt;Pão &amp; Cia&gt;</p>',
    );
    expect(mail.text.startsWith('Padaria <Pão & Cia>\n\nOlá, Ana <script>!')).toBe(true);
    // A template that names the seller is not prefixed; an http logo or a malformed colour is left out.
    const named = renderEmail(before3, {
      ...values,
      businessLogoUrl: 'http://x/l.png',
      businessColor: 'red',
    });
    expect(named.text.startsWith('Olá, Ana <script>!')).toBe(true);
    expect(named.html).toContain(
      '<p style="margin:0 0 16px;font-size:18px;font-weight:bold">Padaria &lt;Pão',
    );
    expect(named.html).not.toContain('http://x/l.png');
  });

  it('escapes every value in the HTML part, the seller’s own template text too', () => {
    const step: ReminderStep = { ...due, body: '<b>{{cliente}}</b> deve {{valor}} a {{empresa}}: {{link}}' };
    const { html } = renderEmail(step, values);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;b&gt;');
    expect(html).toContain('Ana &lt;script&gt;');
    expect(html).toContain('Padaria &lt;Pão &amp; Cia&gt;');
    expect(html).toContain('href="https://pay.example/cobranca/cob_x?a=1&amp;b=2"');
    expect(html).toContain('href="https://pay.example/descadastro/optout_abc"');
  });

  it('has a subject per default step, a test marker in the sandbox, and leaves out what was not issued', () => {
    expect([before3, due, after1, after3, after7].map((s) => renderEmail(s, values).subject)).toEqual([
      'Sua cobrança vence em 05/03/2026: Mensalidade "A&B"',
      'Sua cobrança vence hoje: Mensalidade "A&B"',
      'Cobrança vencida: Mensalidade "A&B"',
      'Cobrança vencida há 3 dias: Mensalidade "A&B"',
      'Cobrança vencida há 7 dias: Mensalidade "A&B"',
    ]);
    const sandbox = renderEmail(before3, { ...values, sandbox: true, boletoLine: null, pixCopyPaste: null });
    expect(sandbox.subject.startsWith('[TESTE] ')).toBe(true);
    expect(sandbox.text).toContain('Ambiente de testes');
    expect(sandbox.text).not.toContain('Linha digitável');
    expect(sandbox.text).not.toContain('Pix copia e cola');
    const unnamed = renderEmail(before3, { ...values, businessName: '' });
    expect(unnamed.text).toContain('Valor: R$ 1.234,56');
    expect(unnamed.text).toContain('Lembrete: a cobrança de  vence em 05/03/2026.');
  });
});

describe('renderSms and whatsappParameters', () => {
  const step: ReminderStep = {
    offsetDays: 1,
    channels: ['sms', 'whatsapp'],
    subject: 'x',
    body: '{{cliente}}, sua cobrança de {{valor}}\nvenceu em {{vencimento}}. Pague: {{link}}\nSair: {{descadastro}}',
    whatsappTemplate: 'cobranca_vencida',
  };

  it('an SMS names the seller and carries the opt-out link once', () => {
    const sms = renderSms({ body: 'Sua cobrança de {{valor}} venceu.' }, values);
    expect(sms).toBe(
      'Padaria <Pão & Cia>: Sua cobrança de R$ 1.234,56 venceu.\nSair: https://pay.example/descadastro/optout_abc',
    );
    expect(renderSms(step, values).match(/descadastro/g)).toHaveLength(1);
  });

  it('WhatsApp gets the body placeholders as named parameters, in order, flattened to one line', () => {
    expect(whatsappParameters(step, { ...values, customerName: 'Ana\n  Maria' })).toEqual([
      { name: 'cliente', value: 'Ana Maria' },
      { name: 'valor', value: 'R$ 1.234,56' },
      { name: 'vencimento', value: '05/03/2026' },
      { name: 'link', value: 'https://pay.example/cobranca/cob_x?a=1&b=2' },
      { name: 'descadastro', value: 'https://pay.example/descadastro/optout_abc' },
    ]);
  });
});
