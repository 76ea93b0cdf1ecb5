import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { runJob } from '#shared/jobs';
import { sellerFixtures } from '../support/fixtures';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 135_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const HOUR_MS = 3_600_000;
const seller = () => fixtures.seller({ customer: {}, named: 'Padaria Pão Quente' });
type Seller = Awaited<ReturnType<typeof seller>>;
const today = () => saoPauloDate(runtime.clock.now());
const spTime = (date: string, hours: number) =>
  new Date(startOfSaoPauloDay(date).getTime() + hours * HOUR_MS);
const ddmm = (date: string) => date.split('-').reverse().join('/');

async function advanceTo(at: Date) {
  const seconds = Math.ceil((at.getTime() - runtime.clock.now().getTime()) / 1000);
  if (seconds > 0) expect((await api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
}

interface Kept {
  id: string;
  to: string;
  subject: string;
  kind: string;
  createdAt: string;
}

/** The seller's kept reminders (mail, WhatsApp, SMS), oldest first, each with its text. */
async function reminders(s: Seller) {
  const listed = (await api.get('/api/test-helpers/mail?limit=100', { token: s.key })).body.data as Kept[];
  const mine = listed.filter((m) => m.kind?.startsWith('scheduled_charge_reminder')).reverse();
  return Promise.all(
    mine.map(async (m) => ({
      ...m,
      day: saoPauloDate(new Date(m.createdAt)),
      text: (await api.get(`/api/test-helpers/mail/${m.id}`, { token: s.key })).body.text as string,
    })),
  );
}

const put = (path: string, body: unknown, token: string) => api.call('PUT', path, { body, token });
const WHATSAPP_TOKEN = `EAAG${'x1Y2'.repeat(10)}`;
const SCHEDULE = {
  steps: [
    {
      offsetDays: 0,
      channels: ['whatsapp', 'sms'],
      subject: 'Vence hoje',
      body: '{{cliente}}, sua cobrança de {{empresa}} de {{valor}} vence hoje. Pague: {{link}} Sair: {{descadastro}}',
      whatsappTemplate: 'cobranca_vence_hoje',
    },
    {
      offsetDays: -2,
      channels: ['email'],
      subject: 'Faltam 2 dias: {{referente}}',
      body: 'Olá, {{cliente}}!\nSua cobrança de {{valor}} vence em {{vencimento}}.\nPix: {{pix_copia_e_cola}}',
      whatsappTemplate: null,
    },
    {
      offsetDays: 2,
      channels: ['email', 'sms'],
      subject: 'Cobrança em atraso: {{referente}}',
      body: 'Sua cobrança de {{valor}} venceu em {{vencimento}}. Pague: {{link}}',
    },
  ],
};

describe('a custom reminder schedule', () => {
  it('refuses a bad schedule naming the field, and keeps the WhatsApp token out of every answer', async () => {
    const s = await seller();
    const bad = await put(
      '/api/reminder-schedule',
      {
        steps: [
          SCHEDULE.steps[1],
          { ...SCHEDULE.steps[1], subject: 'x' },
          { ...SCHEDULE.steps[2], offsetDays: 61 },
        ],
      },
      s.key,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message.join(' ')).toMatch(/steps\.1\.offsetDays/);
    expect(bad.body.message.join(' ')).toMatch(/steps\.2\.offsetDays/);
    const connected = await put(
      '/api/reminder-channels/whatsapp',
      { enabled: true, phoneNumberId: '109876543210', accessToken: WHATSAPP_TOKEN },
      s.key,
    );
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    const got = await api.get('/api/reminder-channels', { token: s.key });
    expect(got.body.whatsapp).toMatchObject({ enabled: true, accessTokenLast4: WHATSAPP_TOKEN.slice(-4) });
    expect(JSON.stringify([connected.body, got.body])).not.toContain(WHATSAPP_TOKEN);
    expect((await api.get('/api/reminder-schedule', { token: s.key })).body.source).toBe('default');
  });

  it('sends the right messages on the right days by e-mail, WhatsApp and SMS; an opt-out stops SMS only', async () => {
    const s = await seller();
    const channels = [
      put(
        '/api/reminder-channels/whatsapp',
        { enabled: true, phoneNumberId: '109876543210', accessToken: WHATSAPP_TOKEN },
        s.key,
      ),
      put('/api/reminder-channels/sms', { enabled: true, originationIdentity: '+5511900001111' }, s.key),
    ];
    for (const res of await Promise.all(channels)) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const saved = await put('/api/reminder-schedule', SCHEDULE, s.key);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.steps.map((x: { offsetDays: number }) => x.offsetDays)).toEqual([-2, 0, 2]);

    const due = addDays(today(), 6);
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: s.customer.id,
        amount: 80,
        methods: ['pix'],
        type: 'one_time',
        description: 'Consulta',
        dueDate: due,
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;

    const preview = await api.post(
      '/api/reminder-schedule/preview',
      { step: 0, scheduledChargeId: id },
      { token: s.key },
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ sendDate: due, amountDue: 80, email: null });
    expect(preview.body.whatsapp).toMatchObject({ to: '+5511987654321', template: 'cobranca_vence_hoje' });
    expect(preview.body.sms.text).toContain('R$ 80,00 vence hoje');

    // Two days before, 09:05: the e-mail step only.
    await advanceTo(spTime(due, -2 * 24 + 9 + 5 / 60));
    let kept = await reminders(s);
    expect(kept.map((m) => [m.kind, m.to, m.day])).toEqual([
      ['scheduled_charge_reminder', 'maria@example.com', addDays(due, -2)],
    ]);
    expect(kept[0].subject).toBe('[TESTE] Faltam 2 dias: Consulta');
    expect(kept[0].text).toContain(`vence em ${ddmm(due)}`);
    expect(kept[0].text).toContain('Pix: ');
    expect(kept[0].text).toMatch(/descadastro\/optout_[A-Za-z0-9]{32}/);

    // The due date, 09:05: WhatsApp and SMS to the customer's mobile, each with its own opt-out link.
    await advanceTo(spTime(due, 9 + 5 / 60));
    kept = await reminders(s);
    const dueDay = kept.filter((m) => m.day === due);
    expect(dueDay.map((m) => [m.kind, m.to]).sort()).toEqual([
      ['scheduled_charge_reminder_sms', '+5511987654321'],
      ['scheduled_charge_reminder_whatsapp', '+5511987654321'],
    ]);
    const sms = dueDay.find((m) => m.kind.endsWith('_sms'));
    expect(sms?.text).toContain('Maria Souza, sua cobrança de Padaria Pão Quente de R$ 80,00');
    expect(sms?.text).toContain('R$ 80,00 vence hoje');
    expect(sms?.text).not.toContain(WHATSAPP_TOKEN);
    const link = sms?.text.match(/\/descadastro\/(optout_[A-Za-z0-9]{32})/)?.[1] as string;
    const whatsappLink = dueDay
      .find((m) => m.kind.endsWith('_whatsapp'))
      ?.text.match(/optout_[A-Za-z0-9]{32}/)?.[0];
    expect(link).toBeTruthy();
    expect(whatsappLink).not.toBe(link);

    // The SMS link: a page that asks (GET changes nothing), then the button stops SMS.
    const ask = await api.get(`/descadastro/${link}`);
    expect(ask.status).toBe(200);
    expect(String(ask.body)).toContain('Parar lembretes por SMS');
    const unknown = await api.get(`/descadastro/optout_${'A'.repeat(32)}`);
    const malformed = await api.get('/descadastro/nada');
    expect([unknown.status, malformed.status]).toEqual([404, 404]);
    expect(String(unknown.body)).toBe(String(malformed.body));
    // As the page's form posts it: an empty urlencoded body.
    const stop = await api.call('POST', `/descadastro/${link}`, {
      raw: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(stop.status).toBe(200);
    expect(String(stop.body)).toContain('lembretes por SMS interrompidos');

    // Two days after: the e-mail goes, the SMS does not.
    await advanceTo(spTime(due, 2 * 24 + 9 + 5 / 60));
    kept = await reminders(s);
    const after = kept.filter((m) => m.day === addDays(due, 2));
    expect(after.map((m) => m.kind)).toEqual(['scheduled_charge_reminder']);
    expect(after[0].text).toContain('R$ 80,00 venceu em');
    expect(kept).toHaveLength(4);

    // The timeline: each channel's outcome, the opted-out SMS skipped with its reason.
    const detail = (await api.get(`/api/v1/scheduled-charges/${id}`, { token: s.key })).body;
    const outcomes = detail.timeline
      .filter((e: { kind: string }) => e.kind.startsWith('reminder_'))
      .map((e: { kind: string; data: { stage: string; channel: string; reason?: string } }) =>
        [e.kind, e.data.stage, e.data.channel, e.data.reason ?? null].join(' '),
      )
      .sort();
    expect(outcomes).toEqual(
      [
        'reminder_sent before_2 email ',
        'reminder_sent due whatsapp ',
        'reminder_sent due sms ',
        'reminder_sent after_2 email ',
        'reminder_skipped after_2 sms opted_out',
      ].sort(),
    );

    // The due job fired twice at once afterwards sends nothing more.
    const job = { job: 'scheduled-charge-due', id: `${s.sellerId}:test:${id}` };
    await Promise.all([runJob(runtime.deps, job), runJob(runtime.deps, job)]);
    expect(await reminders(s)).toHaveLength(4);
  });
});
