import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BusDetail } from '#shared/domain/events/events';
import { keepingMailer, MAIL_ID, routeMail } from '#shared/domain/mail/delivery';
import { escapeHtml, formatBrl, formatSaoPauloDateTime, headerText } from '#shared/domain/mail/format';
import { notify, RECEIPT_LEASE_SECONDS, sendPaymentReceipt } from '#shared/domain/mail/receipts';
import { methodLabel, paymentReceipt } from '#shared/domain/mail/templates';
import type { StoredMail } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { FakeClock } from '../support/fakes/clock';
import { SequentialIds } from '../support/fakes/ids';
import { FakeMailLog, RecordingMailer } from '../support/fakes/mail';
import { FakeTeamRepository } from '../support/fakes/team-repository';

const sandbox: Tenant = { sellerId: 7, environment: 'test' };
const live: Tenant = { sellerId: 7, environment: 'live' };

/** The payload `transaction.payment.succeeded` carries (paymentSucceededData), trimmed to what matters. */
function paymentEvent(data: Record<string, unknown> = {}, tenant = sandbox, id = 'evt_1'): BusDetail {
  return {
    tenant,
    envelope: {
      id,
      event: 'transaction.payment.succeeded',
      timestamp: '2026-11-22T17:05:00.000Z',
      data: {
        id: 1234,
        productId: 9,
        productName: 'Curso de Programação',
        value: 49.9,
        paymentMethod: 'card',
        installments: 3,
        card: { brand: 'visa', last4: '1111' },
        customer: { name: 'Maria Souza', email: 'maria@example.com', document: '52998224725' },
        paidAt: '2026-11-22T17:05:00.000Z',
        ...data,
      },
    },
  };
}

describe('formatBrl', () => {
  it.each([
    [4990, 'R$ 49,90'],
    [5, 'R$ 0,05'],
    [0, 'R$ 0,00'],
    [123456789, 'R$ 1.234.567,89'],
    [100000, 'R$ 1.000,00'],
    [-250, '-R$ 2,50'],
  ])('writes %i centavos as %s', (centavos, text) => {
    expect(formatBrl(centavos)).toBe(text);
  });

  it('reads back to the same centavos for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), (centavos) => {
        const text = formatBrl(centavos);
        expect(text).toMatch(/^R\$ \d{1,3}(\.\d{3})*,\d{2}$/);
        expect(Number(text.slice(3).replaceAll('.', '').replace(',', ''))).toBe(centavos);
      }),
    );
  });

  it('refuses a fraction of a centavo', () => {
    expect(() => formatBrl(49.9)).toThrow();
  });
});

describe('formatSaoPauloDateTime', () => {
  it('shows the Sao Paulo wall time (UTC-3), with the day of Sao Paulo', () => {
    expect(formatSaoPauloDateTime(new Date('2026-11-22T17:05:00Z'))).toBe(
      '22/11/2026 às 14:05 (horário de Brasília)',
    );
    expect(formatSaoPauloDateTime(new Date('2027-01-01T02:30:00Z'))).toBe(
      '31/12/2026 às 23:30 (horário de Brasília)',
    );
  });
});

describe('escapeHtml and headerText', () => {
  it('escapes the five HTML metacharacters', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;',
    );
  });

  it('flattens line breaks and control characters out of a subject and cuts it', () => {
    expect(headerText('Curso\r\nBcc: x@example.com\u0007')).toBe('Curso Bcc: x@example.com');
    expect(headerText('a'.repeat(300))).toHaveLength(150);
  });
});

describe('paymentReceipt', () => {
  const base = {
    transactionId: 1234,
    productName: 'Curso',
    amount: 4990,
    method: 'pix' as const,
    card: null,
    installments: null,
    paidAt: new Date('2026-11-22T17:05:00Z'),
    buyerName: 'Maria Souza',
    sandbox: false,
  };

  it('writes the product, the amount in R$, the method, the Sao Paulo time and the transaction id', () => {
    const mail = paymentReceipt(base);
    expect(mail.subject).toBe('Recibo do seu pagamento: Curso');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Olá, Maria Souza!');
      expect(part).toContain('Curso');
      expect(part).toContain('R$ 49,90');
      expect(part).toContain('Pix');
      expect(part).toContain('22/11/2026 às 14:05 (horário de Brasília)');
      expect(part).toContain('1234');
    }
    expect(mail.text).toContain('Forma de pagamento: Pix');
    expect(mail.html).toContain('<html lang="pt-BR">');
    expect(mail.text).not.toContain('teste');
  });

  it('names the method: Pix, Boleto, card with brand, last 4 and installments', () => {
    expect(methodLabel({ method: 'pix', card: null, installments: null })).toBe('Pix');
    expect(methodLabel({ method: 'boleto', card: null, installments: null })).toBe('Boleto');
    expect(methodLabel({ method: 'card', card: { brand: 'visa', last4: '1111' }, installments: 3 })).toBe(
      'Cartão de crédito Visa final 1111 (3 parcelas)',
    );
    expect(
      methodLabel({ method: 'card', card: { brand: 'mastercard', last4: '4444' }, installments: 1 }),
    ).toBe('Cartão de crédito Mastercard final 4444 (à vista)');
    expect(
      methodLabel({ method: 'card', card: { brand: 'unknown', last4: '0000' }, installments: null }),
    ).toBe('Cartão de crédito final 0000 (à vista)');
  });

  it('escapes seller and buyer text in the HTML part and keeps it as written in the text part', () => {
    const mail = paymentReceipt({
      ...base,
      productName: '<script>alert(1)</script>',
      buyerName: '<img src=x onerror=alert(2)>',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(mail.text).toContain('Produto: <script>alert(1)</script>');
  });

  it('marks a sandbox receipt as a test in the subject and both parts', () => {
    const mail = paymentReceipt({ ...base, sandbox: true });
    expect(mail.subject).toBe('[TESTE] Recibo do seu pagamento: Curso');
    expect(mail.text).toContain('Ambiente de testes: nenhuma cobrança real foi feita.');
    expect(mail.html).toContain('Ambiente de testes: nenhuma cobrança real foi feita.');
  });
});

describe('sendPaymentReceipt', () => {
  let mailer: RecordingMailer;
  let mailLog: FakeMailLog;
  let clock: FakeClock;
  let deps: Parameters<typeof sendPaymentReceipt>[0];

  beforeEach(() => {
    mailer = new RecordingMailer();
    mailLog = new FakeMailLog();
    clock = new FakeClock('2026-11-22T17:05:01.000Z');
    deps = { mailer, mailLog, clock, team: new FakeTeamRepository() };
  });

  it("sends the buyer one receipt in Portuguese, tagged with the sale's tenant", async () => {
    await expect(sendPaymentReceipt(deps, paymentEvent())).resolves.toEqual({
      outcome: 'sent',
      recorded: true,
    });
    expect(mailer.sent).toHaveLength(1);
    const [mail] = mailer.sent;
    expect(mail).toMatchObject({ to: 'maria@example.com', tenant: sandbox, kind: 'receipt' });
    expect(mail.text).toContain('Valor: R$ 49,90');
    expect(mail.text).toContain('Forma de pagamento: Cartão de crédito Visa final 1111 (3 parcelas)');
    expect(mail.text).toContain('Data do pagamento: 22/11/2026 às 14:05 (horário de Brasília)');
    expect(mail.text).toContain('Pedido nº: 1234');
    expect(mailLog.markers.get('receipt#evt_1')?.state).toBe('sent');
  });

  it('sends nothing for a second delivery of the same event, even after the lease', async () => {
    await sendPaymentReceipt(deps, paymentEvent());
    await expect(sendPaymentReceipt(deps, paymentEvent())).resolves.toEqual({ outcome: 'duplicate' });
    clock.advanceSeconds(RECEIPT_LEASE_SECONDS * 10);
    await expect(sendPaymentReceipt(deps, paymentEvent())).resolves.toEqual({ outcome: 'duplicate' });
    expect(mailer.sent).toHaveLength(1);
  });

  it('sends one receipt per event: another event of another payment sends its own', async () => {
    await sendPaymentReceipt(deps, paymentEvent());
    await sendPaymentReceipt(deps, paymentEvent({ id: 1235 }, sandbox, 'evt_2'));
    expect(mailer.sent.map((m) => m.text.match(/Pedido nº: (\d+)/)?.[1])).toEqual(['1234', '1235']);
  });

  it('releases the claim when sending fails, so the retried event sends', async () => {
    mailer.failNext = 1;
    await expect(sendPaymentReceipt(deps, paymentEvent())).rejects.toThrow('mail provider unavailable');
    expect(mailLog.markers.has('receipt#evt_1')).toBe(false);
    await expect(sendPaymentReceipt(deps, paymentEvent())).resolves.toMatchObject({ outcome: 'sent' });
    expect(mailer.sent).toHaveLength(1);
  });

  it('lets a delivery running in parallel win: the other finds the claim and sends nothing', async () => {
    await mailLog.claim('receipt#evt_1', clock.now(), RECEIPT_LEASE_SECONDS);
    await expect(sendPaymentReceipt(deps, paymentEvent())).resolves.toEqual({ outcome: 'duplicate' });
    expect(mailer.sent).toHaveLength(0);
  });

  it('takes over the claim of an attempt that died, once its lease is over', async () => {
    await mailLog.claim('receipt#evt_1', clock.now(), RECEIPT_LEASE_SECONDS);
    clock.advanceSeconds(RECEIPT_LEASE_SECONDS + 1);
    await expect(sendPaymentReceipt(deps, paymentEvent())).resolves.toMatchObject({ outcome: 'sent' });
    expect(mailer.sent).toHaveLength(1);
  });

  it('does not fail (and so does not resend) when only the sent mark cannot be written', async () => {
    mailLog.failMarkSent = true;
    await expect(sendPaymentReceipt(deps, paymentEvent())).resolves.toEqual({
      outcome: 'sent',
      recorded: false,
    });
    await expect(sendPaymentReceipt(deps, paymentEvent())).resolves.toEqual({ outcome: 'duplicate' });
    expect(mailer.sent).toHaveLength(1);
  });

  it('skips a payment without a buyer e-mail and drops a payload it cannot read', async () => {
    await expect(
      sendPaymentReceipt(
        deps,
        paymentEvent({ customer: { name: 'A', email: ' ', document: '52998224725' } }),
      ),
    ).resolves.toEqual({ outcome: 'skipped', reason: 'no_recipient' });
    await expect(sendPaymentReceipt(deps, paymentEvent({ value: 'abc' }))).resolves.toMatchObject({
      outcome: 'malformed',
    });
    await expect(sendPaymentReceipt(deps, paymentEvent({ value: 49.999 }))).resolves.toMatchObject({
      outcome: 'malformed',
    });
    expect(mailer.sent).toHaveLength(0);
    expect(mailLog.markers.size).toBe(0);
  });

  it('writes a live receipt without the sandbox note', async () => {
    await sendPaymentReceipt(deps, paymentEvent({ paymentMethod: 'boleto', card: null }, live));
    expect(mailer.sent[0].subject).toBe('Recibo do seu pagamento: Curso de Programação');
    expect(mailer.sent[0].text).toContain('Forma de pagamento: Boleto');
    expect(mailer.sent[0].tenant).toEqual(live);
  });
});

describe('notify', () => {
  it('dispatches by event name and skips events that e-mail no one', async () => {
    const mailer = new RecordingMailer();
    const deps = {
      mailer,
      mailLog: new FakeMailLog(),
      clock: new FakeClock('2026-11-22T17:05:01Z'),
      team: new FakeTeamRepository(),
    };
    await expect(notify(deps, 'product.updated', paymentEvent())).resolves.toEqual({
      outcome: 'skipped',
      reason: 'not_notified',
    });
    await expect(notify(deps, 'toString', paymentEvent())).resolves.toMatchObject({ outcome: 'skipped' });
    await expect(notify(deps, 'transaction.payment.succeeded', paymentEvent())).resolves.toMatchObject({
      outcome: 'sent',
    });
    expect(mailer.sent).toHaveLength(1);
  });
});

describe('routeMail and keepingMailer', () => {
  const setup = () => {
    const kept: StoredMail[] = [];
    const liveMailer = new RecordingMailer();
    const clock = new FakeClock('2026-11-22T17:05:00.000Z');
    const keeping = keepingMailer({
      ids: new SequentialIds(),
      clock,
      store: { keep: async (m) => void kept.push(m) },
    });
    return { kept, liveMailer, mailer: routeMail({ sandbox: keeping, live: liveMailer }) };
  };

  it("keeps a sandbox tenant's mail and never sends it", async () => {
    const { kept, liveMailer, mailer } = setup();
    await mailer.send({ to: 'Maria@Example.com', subject: 's', text: 't', tenant: sandbox, kind: 'receipt' });
    expect(liveMailer.sent).toHaveLength(0);
    expect(kept).toEqual([
      {
        id: expect.stringMatching(MAIL_ID),
        tenant: sandbox,
        to: 'maria@example.com',
        subject: 's',
        text: 't',
        html: null,
        kind: 'receipt',
        createdAt: '2026-11-22T17:05:00.000Z',
      },
    ]);
  });

  it("sends a live tenant's mail and mail of no tenant", async () => {
    const { kept, liveMailer, mailer } = setup();
    await mailer.send({ to: 'a@example.com', subject: 's', text: 't', tenant: live });
    await mailer.send({ to: 'b@example.com', subject: 's', text: 't' });
    expect(liveMailer.sent.map((m) => m.to)).toEqual(['a@example.com', 'b@example.com']);
    expect(kept).toHaveLength(0);
  });

  it('gives ids that sort by the time they were kept', async () => {
    const ids = new SequentialIds();
    const clock = new FakeClock('2026-11-22T17:05:00.000Z');
    const kept: StoredMail[] = [];
    const keeping = keepingMailer({ ids, clock, store: { keep: async (m) => void kept.push(m) } });
    for (const seconds of [0, 1, 3600, 86_400 * 400]) {
      clock.advanceSeconds(seconds);
      await keeping.send({ to: 'a@example.com', subject: 's', text: 't', tenant: sandbox });
    }
    const ids_ = kept.map((m) => m.id);
    expect([...ids_].sort()).toEqual(ids_);
    expect(new Set(ids_).size).toBe(4);
  });
});

describe('the receipt of a seller with a business profile', () => {
  it('names the seller and shows its https logo, escaped', async () => {
    const mailer = new RecordingMailer();
    const team = new FakeTeamRepository();
    team.seedSeller({
      id: 7,
      name: 'Loja <Ana> & Cia',
      logoUrl: 'https://cdn.example/l.png?a=1&b="2"',
      brandColor: '#7c3aed',
    });
    const deps = { mailer, mailLog: new FakeMailLog(), clock: new FakeClock('2026-11-22T17:05:01Z'), team };
    const event = paymentEvent();
    await sendPaymentReceipt(deps, {
      ...event,
      tenant: { sellerId: 7, environment: event.tenant.environment },
    });
    expect(mailer.sent[0].subject).toBe('[TESTE] Recibo de Loja <Ana> & Cia: Curso de Programação');
    expect(mailer.sent[0].text).toContain('Vendido por: Loja <Ana> & Cia');
    expect(mailer.sent[0].html).toContain(
      '<img src="https://cdn.example/l.png?a=1&amp;b=&quot;2&quot;" alt=""',
    );
    // The business name heads the mail, over a band of the seller's colour.
    expect(mailer.sent[0].html).toMatch(
      /<p style="border-top:6px solid #7c3aed;[^"]*">.*Loja &lt;Ana&gt; &amp; Cia<\/p>/,
    );
  });
});
