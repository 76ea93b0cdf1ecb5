import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { type Dashboard, openDashboard } from '../support/dashboard';

/**
 * Billing settings in the seller dashboard (Chromium): the late-charge defaults (Multa e juros),
 * the reminder schedule and its channels (Régua de cobrança), the late-charge fields of a product,
 * a scheduled charge and a carnê, and what a charge shows of them: the amount due today and each
 * reminder's delivery. The API confirms what the page said; every view is checked by axe-core at
 * 390 px and 1280 px.
 */

let d: Dashboard;
const WHATSAPP_TOKEN = `EAAG${'k9Zq'.repeat(8)}`;
const HOUR_MS = 3_600_000;

const today = () => saoPauloDate(d.runtime.clock.now());
const brDate = (day: string) => day.split('-').reverse().join('/');
const brl = (reais: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(reais).replace(/\s/g, ' ');

async function seed<T>(path: string, body: unknown): Promise<T> {
  const res = await d.api.post(path, body, { token: d.seller.testKey });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as T;
}
const read = async <T>(path: string): Promise<T> => {
  const res = await d.api.get(path, { token: d.seller.testKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};
/** Text with non-breaking spaces as plain ones (Intl puts one after R$). */
const plain = async (text: Promise<string | null>) => ((await text) ?? '').replace(/\s/g, ' ');

async function pickCustomer(name: string) {
  const { page } = d;
  await page.getByLabel('Buscar cliente').fill(name);
  await page.getByRole('button', { name: 'Buscar', exact: true }).click();
  await expect
    .poll(() => page.getByLabel('Cliente escolhido').locator('option:checked').textContent())
    .toContain(name);
}

let productId: number;
beforeAll(async () => {
  // 400: the API's refusals, shown under the fields.
  d = await openDashboard({
    email: 'rosa@regua.example.com',
    businessName: 'Escola da Rosa',
    shownStatuses: [400],
    screenshotPrefix: 'dashboard-billing-settings-',
  });
  await seed('/api/v1/customers', {
    name: 'Maria Souza',
    email: 'maria@example.com',
    document: '529.982.247-25',
    phone: '11987654321',
    personType: 'fisica',
  });
  const product = await seed<{ id: number }>('/api/products', {
    name: 'Curso de Piano',
    image: 'https://cdn.example.com/p.png',
    value: 600,
    boleto: true,
    carne: { enabled: true, maxInstallments: 6 },
  });
  productId = product.id;
}, 120_000);
afterAll(async () => {
  await d?.close();
});

describe('Multa e juros', () => {
  it('checks the legal caps before asking, shows the API refusal under its field, and saves the defaults', async () => {
    const { page } = d;
    await d.goTo('Multa e juros');
    await page.getByText('Limites legais: multa de até 2% do valor').waitFor();
    const fine = page.getByLabel('Multa (%)');
    const interest = page.getByLabel('Juros ao mês (%)');
    expect(await fine.inputValue()).toBe('');

    // Over the caps: refused in the page, no request made.
    await fine.fill('2,5');
    await interest.fill('1,2');
    let puts = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith('/api/portal/configuration')) puts++;
    });
    await page.getByRole('button', { name: 'Salvar multa e juros' }).click();
    await page.getByText('Multa: no máximo 2% do valor (CDC, art. 52 §1).').waitFor();
    await page.getByText('Juros: no máximo 1% ao mês.').waitFor();
    expect(puts).toBe(0);

    // Within the caps but with three decimals: the API refuses, named under the fine.
    await fine.fill('1,555');
    await interest.fill('1');
    await page.getByRole('button', { name: 'Salvar multa e juros' }).click();
    await page.getByText('Multa: use até 2 casas decimais.').waitFor();
    expect(puts).toBe(1);
    await d.checkView('multa-e-juros-recusada');

    await fine.fill('2');
    await page.getByRole('button', { name: 'Salvar multa e juros' }).click();
    await page.getByText('Multa e juros salvos: valem para as novas cobranças.').waitFor();
    expect(await plain(page.getByText(/^Exemplo: uma cobrança de R\$/).textContent())).toBe(
      'Exemplo: uma cobrança de R$ 100,00 paga 10 dias depois do vencimento sai por R$ 102,33 (multa R$ 2,00 + juros R$ 0,33).',
    );
    const saved = await read<{ lateCharges: unknown; allowCancelSubscription: boolean }>(
      '/api/portal/configuration/effective',
    );
    expect(saved.lateCharges).toEqual({
      fine: { type: 'percentage', value: 2 },
      interest: { percentPerMonth: 1 },
    });
    // The portal's own settings went back as they were.
    expect(saved.allowCancelSubscription).toBe(true);
    await d.checkView('multa-e-juros');
  });

  it("sets a product's own fine; its carnê takes it, and the seller's interest", async () => {
    const { page } = d;
    await page.goto(`${d.runtime.baseUrl}/dashboard/produtos/${productId}`);
    const card = page.getByRole('region', { name: 'Multa e juros deste produto' });
    await card.getByLabel('Multa (%)').waitFor();
    expect(await card.getByLabel('Multa (%)').inputValue()).toBe('');
    await card.getByLabel('Multa (%)').fill('1,5');
    await card.getByRole('button', { name: 'Salvar multa e juros do produto' }).click();
    await card.getByText('Multa e juros salvos').waitFor();
    const own = await read<{ source: string; lateCharges: unknown; allowCancelSubscription: boolean }>(
      `/api/products/${productId}/portal-config/effective`,
    );
    expect(own).toMatchObject({
      source: 'product',
      lateCharges: { fine: { type: 'percentage', value: 1.5 }, interest: null },
      allowCancelSubscription: true,
    });
    await d.checkView('produto-multa-e-juros');

    await d.goTo('Carnês');
    await page.getByRole('link', { name: 'Novo carnê' }).click();
    await page.getByRole('heading', { level: 1, name: 'Novo carnê' }).waitFor();
    await pickCustomer('Maria');
    await page.getByLabel('Parcelas').selectOption('3');
    // The defaults apply: the product's fine, the seller's interest.
    expect(await page.getByLabel('Usar a multa e os juros padrão').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Adicionar faixa de desconto' }).click();
    await page.getByLabel('Desconto 1: pago até').fill(addDays(today(), 40));
    await page.getByLabel('Desconto 1: %').fill('5');
    await page.getByLabel('1º vencimento').fill(addDays(today(), 30));
    await page.getByRole('button', { name: 'Criar carnê' }).click();
    await page.getByText('Desconto 1: a data deve ser até o vencimento.').waitFor();
    await page.getByLabel('Desconto 1: pago até').fill(addDays(today(), 20));
    await d.checkView('novo-carne-multa');
    await page.getByRole('button', { name: 'Criar carnê' }).click();
    await page.getByRole('heading', { level: 1, name: 'Carnê de Maria Souza' }).waitFor();
    const uuid = new URL(page.url()).pathname.split('/').pop() as string;
    const plan = await read<{ installmentsDetail: { amount: number; amountDue: number; fine: unknown }[] }>(
      `/api/v1/installment-plans/${uuid}`,
    );
    expect(plan.installmentsDetail[0]).toMatchObject({
      fine: { type: 'percentage', value: 1.5 },
      interest: { percentPerMonth: 1 },
      discounts: [{ until: addDays(today(), 20), type: 'percentage', value: 5 }],
    });
    const summary = page.getByRole('region', { name: 'Resumo' });
    expect(await plain(summary.getByText(/^Multa de/).textContent())).toBe(
      `Multa de 1,5% · juros de 1% ao mês · 5% de desconto até ${brDate(addDays(today(), 20))}`,
    );
    const first = plan.installmentsDetail[0];
    expect(first.amountDue).toBe(Math.round(first.amount * 95) / 100);
    expect(await plain(page.locator('.amount-due').first().textContent())).toBe(
      `${brl(first.amountDue)} com desconto`,
    );
    await d.checkView('carne-multa');
  });
});

describe('Régua de cobrança', () => {
  it('switches on WhatsApp and SMS without showing the token back, and edits the steps with a preview', async () => {
    const { page } = d;
    await d.goTo('Régua de cobrança');
    await page.getByText('Você usa a régua padrão').waitFor();
    await expect
      .poll(() => page.getByRole('group', { name: /^Etapa \d+: (No dia|\d+ dias?) / }).count())
      .toBe(5);
    await d.checkView('regua-padrao');

    await page.getByRole('button', { name: 'Configurar WhatsApp' }).click();
    await page.getByLabel('Id do número do WhatsApp').fill('109876543210');
    await page.getByLabel('Token de acesso').fill('curto');
    await page.getByRole('button', { name: 'Salvar WhatsApp' }).click();
    await page.getByText('Token de acesso: cole o token do usuário do sistema').waitFor();
    await page.getByLabel('Token de acesso').fill(WHATSAPP_TOKEN);
    await page.getByRole('button', { name: 'Salvar WhatsApp' }).click();
    await page.getByText('WhatsApp salvo.').waitFor();
    await page.getByText(`token terminado em ${WHATSAPP_TOKEN.slice(-4)}`).waitFor();
    expect(await page.content()).not.toContain(WHATSAPP_TOKEN);
    await page.getByRole('button', { name: 'Alterar WhatsApp' }).click();
    expect(await page.getByLabel('Token de acesso').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Fechar sem salvar' }).click();

    await page.getByRole('button', { name: 'Configurar SMS' }).click();
    await page.getByLabel('Remetente do SMS').fill('+5511900001111');
    await page.getByRole('button', { name: 'Salvar SMS' }).click();
    await page.getByText('SMS salvo.').waitFor();
    const channels = await read<{ whatsapp: { enabled: boolean }; sms: { enabled: boolean } }>(
      '/api/reminder-channels',
    );
    expect([channels.whatsapp.enabled, channels.sms.enabled]).toEqual([true, true]);

    // Step 2 (the due date) also by WhatsApp and SMS: the template and the opt-out link are asked for.
    const due = page.getByRole('group', { name: 'Etapa 2: No dia do vencimento' });
    const dueChannels = due.getByRole('group', { name: 'Etapa 2: canais' });
    await dueChannels.getByLabel('WhatsApp').check();
    await dueChannels.getByLabel('SMS').check();
    await page.getByRole('button', { name: 'Salvar régua' }).click();
    await page.getByText('Modelo do WhatsApp: obrigatório com WhatsApp.').waitFor();
    await page.getByText('Mensagem: com WhatsApp, inclua {{descadastro}}').waitFor();
    await page.getByLabel('Etapa 2: modelo aprovado do WhatsApp').fill('cobranca_vence_hoje');
    await page
      .getByLabel('Etapa 2: mensagem')
      .fill(
        '{{cliente}}, a cobrança de {{empresa}} de {{valor}} vence hoje. Pague: {{link}} Sair: {{descadastro}}',
      );
    // The last step (7 days after) goes; a step 10 days after comes instead.
    await page.getByRole('button', { name: 'Remover etapa 5' }).click();
    await page.getByRole('button', { name: 'Adicionar etapa' }).click();
    await page.getByLabel('Etapa 5: dias').fill('10');
    await page.getByRole('button', { name: 'Ver a mensagem da etapa 2' }).click();
    const preview = page.getByRole('region', { name: 'Mensagem da etapa 2, com dados de exemplo' });
    expect(await preview.textContent()).toContain(
      'Maria Souza, a cobrança de Sua Loja de R$ 120,50 vence hoje.',
    );
    await d.checkView('regua-editada');
    await page.getByRole('button', { name: 'Salvar régua' }).click();
    await page.getByText('Régua salva: vale para os próximos lembretes.').waitFor();
    const schedule = await read<{ source: string; steps: { offsetDays: number; channels: string[] }[] }>(
      '/api/reminder-schedule',
    );
    expect(schedule.source).toBe('seller');
    expect(schedule.steps.map((s) => [s.offsetDays, s.channels.join('+')])).toEqual([
      [-3, 'email'],
      [0, 'email+whatsapp+sms'],
      [1, 'email'],
      [3, 'email'],
      [10, 'email'],
    ]);
  });
});

describe('a scheduled charge with late charges', () => {
  it('shows the discount before the due date, the fine and interest after it, and each reminder delivered', async () => {
    const { page } = d;
    await d.goTo('Cobranças agendadas');
    await page.getByRole('link', { name: 'Nova cobrança' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nova cobrança' }).waitFor();
    await pickCustomer('Maria');
    await page.getByLabel('Valor').fill('10000');
    const dueDate = addDays(today(), 10);
    await page.getByLabel('Vencimento', { exact: true }).fill(dueDate);
    await page.getByLabel('Usar a multa e os juros padrão').uncheck();
    await page.getByLabel('Tipo de multa').selectOption('fixed');
    await page.getByLabel('Multa (R$)').fill('5');
    await page.getByLabel('Juros ao mês (%)').fill('1');
    await page.getByRole('button', { name: 'Adicionar faixa de desconto' }).click();
    await page.getByLabel('Desconto 1: pago até').fill(addDays(today(), 5));
    await page.getByLabel('Desconto 1: %').fill('10');
    await page.getByRole('button', { name: 'Criar cobrança' }).click();
    await page.getByText('Multa: no máximo 2% do valor, R$ 2,00 nesta cobrança (CDC, art. 52 §1).').waitFor();
    await d.checkView('nova-cobranca-multa-recusada');
    await page.getByLabel('Multa (R$)').fill('2');
    await page.getByRole('button', { name: 'Criar cobrança' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cobrança de Maria Souza' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop() as string;
    const summary = page.getByRole('region', { name: 'Resumo' });
    expect(await plain(summary.getByText(/^Multa de/).textContent())).toBe(
      `Multa de R$ 2,00 · juros de 1% ao mês · 10% de desconto até ${brDate(addDays(today(), 5))}`,
    );
    expect(await plain(summary.locator('.amount-due').textContent())).toBe('R$ 90,00 com desconto');

    // Twenty days later: ten days late, the fine and ten days of interest; the reminders went out.
    const at = new Date(startOfSaoPauloDay(addDays(dueDate, 10)).getTime() + 10 * HOUR_MS);
    const seconds = Math.ceil((at.getTime() - d.runtime.clock.now().getTime()) / 1000);
    expect((await d.api.post('/api/test-helpers/clock/advance', { seconds })).status).toBe(200);
    const charge = await read<{
      cycles: { amountDue: number }[];
      timeline: { kind: string; data: { stage: string; channel: string; to?: string } }[];
    }>(`/api/v1/scheduled-charges/${id}`);
    expect(charge.cycles[0].amountDue).toBe(102.33);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Cobrança de Maria Souza' }).waitFor();
    expect(await plain(summary.locator('.amount-due').textContent())).toBe('R$ 102,33 com multa e juros');

    const delivered = charge.timeline.filter((e) => e.kind.startsWith('reminder_'));
    expect(delivered.map((e) => `${e.data.stage} ${e.data.channel}`).sort()).toEqual(
      [
        'after_1 email',
        'after_10 email',
        'after_3 email',
        'before_3 email',
        'due email',
        'due sms',
        'due whatsapp',
      ].sort(),
    );
    const list = page.getByRole('list', { name: 'Lembretes da cobrança' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(delivered.length);
    await list.getByText('WhatsApp: enviado para +5511987654321').waitFor();
    await list.getByText('SMS: enviado para +5511987654321').waitFor();
    expect(await list.getByText('E-mail: enviado para maria@example.com').count()).toBe(5);
    await list.getByText(/10 dias depois do vencimento/).waitFor();
    await d.checkView('cobranca-lembretes');
    expect(d.watched.problems).toEqual([]);
  });
});

describe("a customer's reminders", () => {
  it('shows the schedule the customer follows and the channel they opted out of', async () => {
    const { page } = d;
    const sms = d.runtime.mailbox.all().find((m) => m.to === '+5511987654321' && /descadastro/.test(m.text));
    const token = sms?.text.match(/\/descadastro\/(optout_[A-Za-z0-9]+)/)?.[1];
    expect(token).toBeDefined();
    const stop = await d.api.call('POST', `/descadastro/${token}`, {
      raw: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(stop.status).toBe(200);

    await d.goTo('Clientes');
    await page
      .getByRole('link', { name: /Maria Souza/ })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: 'Maria Souza' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Seções do cliente' })
      .getByRole('link', { name: 'Lembretes' })
      .click();
    const section = page.getByRole('region', { name: 'Lembretes' });
    await section.getByText('Segue a régua da sua conta').waitFor();
    await section.getByText('10 dias depois do vencimento').waitFor();
    await section.getByText('por e-mail, WhatsApp, SMS').waitFor();
    await section.getByText('O cliente pediu para não receber por SMS: esse canal fica de fora.').waitFor();
    const api = await read<{ source: string; optedOut: string[] }>(
      `/api/v1/customers/${(await read<{ data: { uuid: string }[] }>('/api/v1/customers?search=Maria')).data[0].uuid}/reminder-schedule`,
    );
    expect(api).toMatchObject({ source: 'seller', optedOut: ['sms'] });
    await d.checkView('cliente-lembretes');
  });
});
