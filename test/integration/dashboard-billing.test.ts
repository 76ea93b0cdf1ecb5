import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonthsAnchored, saoPauloDate } from '#shared/dates';
import { type Dashboard, openDashboard } from '../support/dashboard';
import { pdfText } from '../support/pdf-text';

/**
 * Scheduled charges and carnês in the seller dashboard (Chromium), as a seller runs them: the data
 * is seeded through the API with the seller's sandbox key, every action goes through the page, and
 * the API confirms what the page said. Every view is checked by axe-core at 390 px and 1280 px.
 */

let d: Dashboard;

const today = () => saoPauloDate(d.runtime.clock.now());
const brDate = (day: string) => day.split('-').reverse().join('/');
const pageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;

async function seed<T>(path: string, body: unknown, status = 201): Promise<T> {
  const res = await d.api.post(path, body, { token: d.seller.testKey });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as T;
}
const read = async <T>(path: string): Promise<T> => {
  const res = await d.api.get(path, { token: d.seller.testKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};

beforeAll(async () => {
  d = await openDashboard({ email: 'ana@cobrancas.example.com', screenshotPrefix: 'dashboard-billing-' });
  await seed('/api/v1/customers', {
    name: 'Maria Souza',
    email: 'maria@example.com',
    document: '529.982.247-25',
    phone: '11987654321',
    personType: 'fisica',
  });
  await seed('/api/v1/customers', {
    name: 'João Lima',
    email: 'joao@example.com',
    document: '390.533.447-05',
    phone: '11912345678',
    personType: 'fisica',
  });
  await seed('/api/products', {
    name: 'Curso de Violão',
    image: 'https://cdn.example.com/v.png',
    value: 1000,
    boleto: true,
    carne: { enabled: true, maxInstallments: 6, interestFactors: { '4': 1.05 } },
  });
}, 120_000);
afterAll(async () => {
  await d?.close();
});

async function newCharge(customer: string) {
  const { page } = d;
  await page.getByRole('link', { name: 'Nova cobrança' }).click();
  await page.getByRole('heading', { level: 1, name: 'Nova cobrança' }).waitFor();
  await page.getByLabel('Buscar cliente').fill(customer);
  await page.getByRole('button', { name: 'Buscar', exact: true }).click();
  await expect
    .poll(() => page.getByLabel('Cliente escolhido').locator('option:checked').textContent())
    .toContain(customer);
}

describe('scheduled charges', () => {
  it('creates a one-time charge due today and marks it paid, with a confirmation', async () => {
    const { page } = d;
    await d.goTo('Cobranças agendadas');
    await page.getByText('0 cobranças').waitFor();
    await d.checkView('cobrancas-vazia');
    await newCharge('Maria');
    await page.getByLabel('Valor').fill('12990');
    expect(await page.getByLabel('Valor').inputValue()).toMatch(/^R\$\s129,90$/);
    expect(await page.getByLabel('Vencimento', { exact: true }).inputValue()).toBe(today());
    await d.checkView('nova-cobranca');
    await page.getByRole('button', { name: 'Criar cobrança' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cobrança de Maria Souza' }).waitFor();
    await page.getByText('Cobrança criada.').waitFor();
    const id = new URL(page.url()).pathname.split('/').pop() as string;
    const summary = page.getByRole('region', { name: 'Resumo' });
    await summary.getByText('Vence hoje').waitFor();
    // The amount, and what is due today (no fine, interest or discount: the same).
    await expect.poll(() => summary.getByText('R$ 129,90').count()).toBe(2);
    await d.checkView('cobranca-detalhe');

    await page.getByLabel('Referência externa (opcional)').fill('PIX-BANCO-123');
    await page.getByRole('button', { name: 'Marcar como paga' }).click();
    await page.getByText(`Registrar R$ 129,90 recebidos fora do sistema em ${brDate(today())}?`).waitFor();
    await page.getByRole('button', { name: 'Sim, marcar como paga' }).click();
    await page.getByText('Pagamento registrado: a cobrança está paga.').waitFor();
    await summary.getByText('Paga', { exact: true }).waitFor();
    await page.getByText('Marcada como paga manualmente').waitFor();

    const charge = await read<{ status: string; amount: number; timeline: { kind: string }[] }>(
      `/api/v1/scheduled-charges/${id}`,
    );
    expect(charge).toMatchObject({ status: 'paid', amount: 129.9 });
    expect(charge.timeline.map((e) => e.kind)).toContain('manually_marked_paid');
  });

  it('creates a recurring charge, postpones, pauses, resumes and cancels it', async () => {
    const { page } = d;
    await d.goTo('Cobranças agendadas');
    await newCharge('João');
    await page.getByLabel('Recorrente').check();
    await page.getByLabel('Valor').fill('4990');
    await page.getByRole('group', { name: 'Meios de pagamento' }).getByLabel('Pix').uncheck();
    await page.getByLabel('Primeiro vencimento').fill(addDays(today(), 5));
    await page.getByLabel('Frequência').selectOption('month');
    await page.getByLabel('Número de cobranças (opcional)').fill('12');
    await d.checkView('nova-cobranca-recorrente');
    await page.getByRole('button', { name: 'Criar cobrança recorrente' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cobrança de João Lima' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop() as string;
    await page.getByText('Recorrente: todo mês, 12 cobranças').waitFor();

    const later = addDays(today(), 12);
    await page.getByLabel('Novo vencimento').fill(later);
    await page.getByLabel('Motivo (opcional)').fill('Cliente pediu mais prazo');
    await page.getByRole('button', { name: 'Adiar vencimento' }).click();
    await page.getByRole('button', { name: 'Sim, adiar' }).click();
    await page.getByText(`Vencimento adiado para ${brDate(later)}.`).waitFor();
    await page
      .getByText(`de ${brDate(addDays(today(), 5))} para ${brDate(later)} (Cliente pediu mais prazo)`)
      .waitFor();
    expect(await read(`/api/v1/scheduled-charges/${id}`)).toMatchObject({
      dueDate: later,
      status: 'scheduled',
    });

    await page.getByRole('button', { name: 'Pausar cobrança' }).click();
    await page.getByRole('button', { name: 'Sim, pausar' }).click();
    await page.getByText('Cobrança pausada.').waitFor();
    await page.getByRole('button', { name: 'Retomar cobrança' }).click();
    await page.getByRole('button', { name: 'Sim, retomar' }).click();
    await page.getByText('Cobrança retomada.').waitFor();
    expect(await read(`/api/v1/scheduled-charges/${id}`)).toMatchObject({ pausedAt: null });

    await page.getByRole('button', { name: 'Cancelar recorrência' }).click();
    await page.getByRole('button', { name: 'Sim, cancelar' }).click();
    await page.getByText('Recorrência cancelada.').waitFor();
    await page.getByText('Esta cobrança está encerrada: não há ações.').waitFor();
    await d.checkView('cobranca-recorrente-cancelada');
    expect(await read(`/api/v1/scheduled-charges/${id}`)).toMatchObject({ status: 'recurrence_canceled' });
  });

  it("lists the charges with the API's filters", async () => {
    const { page } = d;
    await d.goTo('Cobranças agendadas');
    const list = page.getByRole('list', { name: 'Cobranças agendadas' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await page.getByLabel('Tipo').selectOption('recurring');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await list.getByRole('link', { name: 'João Lima' }).waitFor();
    expect(page.url()).toContain('tipo=recurring');
    await page.getByLabel('Tipo').selectOption('');
    await page.getByLabel('Situação').selectOption('paid');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await list.getByRole('link', { name: 'Maria Souza' }).waitFor();
    await page.getByLabel('Situação').selectOption('');
    await page.getByLabel('Buscar').fill('joao@example.com');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await list.getByRole('link', { name: 'João Lima' }).waitFor();
    await d.checkView('cobrancas-filtradas');
  });
});

describe('carnês', () => {
  let uuid: string;
  let publicUrl: string;

  it('creates a carnê for a customer and product and shows its installments', async () => {
    const { page } = d;
    await d.goTo('Carnês');
    await page.getByText('Nenhum carnê encontrado.').waitFor();
    await d.checkView('carnes-vazia');
    await page.getByRole('link', { name: 'Novo carnê' }).click();
    await page.getByRole('heading', { level: 1, name: 'Novo carnê' }).waitFor();
    await page.getByLabel('Buscar cliente').fill('Maria');
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect
      .poll(() => page.getByLabel('Cliente escolhido').locator('option:checked').textContent())
      .toContain('Maria Souza');
    await page.getByLabel('Parcelas').selectOption('4');
    // 1000 × 1.05 / 4 = 262.50
    await page.getByText('4x de R$ 262,50 (total R$ 1.050,00)').waitFor();
    await d.checkView('novo-carne');
    await page.getByRole('button', { name: 'Criar carnê' }).click();
    await page.getByRole('heading', { level: 1, name: 'Carnê de Maria Souza' }).waitFor();
    uuid = new URL(page.url()).pathname.split('/').pop() as string;
    const installments = page.getByRole('list', { name: 'Parcelas do carnê' }).getByRole('listitem');
    await expect.poll(() => installments.count()).toBe(4);
    const plan = await read<{ installmentsDetail: { boleto: { barcodeLine: string } | null }[] }>(
      `/api/v1/installment-plans/${uuid}`,
    );
    await installments.nth(0).getByText(plan.installmentsDetail[0].boleto!.barcodeLine).waitFor();
    await installments.nth(3).getByText('Emitido 10 dias antes do vencimento').waitFor();
    await installments
      .nth(1)
      .getByText(brDate(addMonthsAnchored(today(), 1)))
      .waitFor();
    await d.checkView('carne-detalhe');
  });

  it('prints the whole carnê as one PDF booklet, three installments to a page', async () => {
    const { page } = d;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Baixar carnê (PDF)' }).click(),
    ]);
    const pdf = await readFile((await download.path()) as string);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pageCount(pdf)).toBe(Math.ceil(4 / 3));
    const plan = await read<{
      installmentsDetail: { boleto: { barcodeLine: string } | null; dueDate: string }[];
    }>(`/api/v1/installment-plans/${uuid}`);
    const text = await pdfText(pdf);
    // Every issued installment's linha digitável; the others say when their boleto comes.
    const issued = plan.installmentsDetail.filter((i) => i.boleto);
    expect(issued.length).toBeGreaterThan(0);
    for (const i of issued) expect(text).toContain(i.boleto!.barcodeLine);
    expect(text.match(/Boleto ainda não emitido/g)).toHaveLength(4 - issued.length);
    for (const i of plan.installmentsDetail) expect(text).toContain(brDate(i.dueDate));
    expect(text).toContain('Padaria da Ana');
    expect(text).toContain('Maria Souza');
    expect(text).toContain('R$ 262,50');
    expect(text).toContain('Parcela 4 de 4');
  });

  it('copies a public link that opens the booklet without a session; a tampered token is 404', async () => {
    const { page } = d;
    await page.getByRole('button', { name: 'Copiar link público' }).click();
    await page.getByText('Link copiado.').waitFor();
    publicUrl = (await page.locator('.secret-value').textContent()) as string;
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(publicUrl);
    expect(publicUrl).toMatch(new RegExp(`^${d.runtime.baseUrl}/carne/crn_`));
    expect(publicUrl).not.toContain(d.seller.testKey);
    await d.checkView('carne-link-publico');

    const open = await fetch(publicUrl);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(open.headers.get('cache-control')).toBe('no-store');
    expect(pageCount(Buffer.from(await open.arrayBuffer()))).toBe(2);

    const last = publicUrl.at(-1) === 'a' ? 'b' : 'a';
    const tampered = await fetch(publicUrl.slice(0, -1) + last);
    const missing = await fetch(`${d.runtime.baseUrl}/carne/nada`);
    expect(tampered.status).toBe(404);
    expect(missing.status).toBe(404);
    const message = async (r: Response) => ((await r.json()) as { message: string }).message;
    expect(await message(tampered)).toBe(await message(missing));
    // The same secret naming another seller's account reads nothing there.
    const forged = publicUrl.replace(/\/carne\/crn_(\d+)_/, (_, id) => `/carne/crn_${Number(id) + 1}_`);
    expect(forged).not.toBe(publicUrl);
    expect((await fetch(forged)).status).toBe(404);

    // Asking again gives the same link.
    const again = await seed<{ url: string }>(
      `/api/v1/installment-plans/${uuid}/booklet-link`,
      undefined,
      200,
    );
    expect(again.url).toBe(publicUrl);
  });

  it('issues a second copy and marks an installment paid', async () => {
    const { page } = d;
    const first = page.getByRole('list', { name: 'Parcelas do carnê' }).getByRole('listitem').nth(0);
    await first.getByRole('button', { name: 'Segunda via da parcela 1' }).click();
    await page.getByRole('button', { name: 'Sim, emitir segunda via' }).click();
    await page.getByText('Segunda via da parcela 1 emitida; o boleto anterior não vale mais.').waitFor();
    await first.getByText('Segundas vias').waitFor();
    const plan = await read<{ installmentsDetail: { transactionId: number; reissueCount: number }[] }>(
      `/api/v1/installment-plans/${uuid}`,
    );
    expect(plan.installmentsDetail[0].reissueCount).toBe(1);

    // The bank cleared the second copy but its notification did not arrive.
    await seed(
      `/api/test-helpers/transactions/${plan.installmentsDetail[0].transactionId}/pay`,
      { notify: false },
      200,
    );
    await first.getByRole('button', { name: 'Marcar parcela 1 como paga' }).click();
    await page.getByRole('button', { name: 'Sim, marcar como paga' }).click();
    await page.getByText('Parcela 1 marcada como paga.').waitFor();
    await first.getByText('Paga', { exact: true }).waitFor();
    expect(await read(`/api/v1/installment-plans/${uuid}`)).toMatchObject({
      status: 'active',
      installmentsPaid: 1,
    });
    await d.checkView('carne-parcela-paga');
  });

  it('revokes the public link (it answers like a missing one) and cancels the carnê', async () => {
    const { page } = d;
    await page.getByRole('button', { name: 'Revogar link público' }).click();
    await page.getByRole('button', { name: 'Sim, revogar' }).click();
    await page.getByText('Link revogado: ele não abre mais o carnê.').waitFor();
    const revoked = await fetch(publicUrl);
    expect(revoked.status).toBe(404);
    expect(await revoked.json()).toMatchObject({
      statusCode: 404,
      message: 'Carnê não encontrado: o link não existe ou foi desativado pelo vendedor.',
    });

    await page.getByRole('button', { name: 'Cancelar carnê' }).click();
    await page.getByRole('button', { name: 'Sim, cancelar carnê' }).click();
    await page.getByText('Carnê cancelado: os boletos em aberto não podem mais ser pagos.').waitFor();
    expect(await read(`/api/v1/installment-plans/${uuid}`)).toMatchObject({ status: 'canceled' });

    // The seller still prints a canceled carnê (it says so); it has no public link to give.
    const pdf = await d.api.get(`/api/v1/installment-plans/${uuid}/booklet`, { token: d.seller.testKey });
    expect(pdf.status).toBe(200);
    expect(await page.getByRole('button', { name: 'Copiar link público' }).count()).toBe(0);

    await d.goTo('Carnês');
    const list = page.getByRole('list', { name: 'Carnês' });
    await list.getByRole('link', { name: 'Maria Souza' }).waitFor();
    await list.getByText('Cancelado').waitFor();
    await d.checkView('carnes');
  });

  it('shows another seller none of these charges or carnês', async () => {
    const other = await d.newSeller('bruno@outro.example.com', 'Loja do Bruno');
    const plans = await d.api.get('/api/v1/installment-plans', { token: other.testKey });
    expect(plans.body).toMatchObject({ totalCount: 0 });
    const booklet = await d.api.get(`/api/v1/installment-plans/${uuid}/booklet`, { token: other.testKey });
    expect(booklet.status).toBe(404);
    const link = await d.api.post(`/api/v1/installment-plans/${uuid}/booklet-link`, undefined, {
      token: other.testKey,
    });
    expect(link.status).toBe(404);
    expect(d.watched.problems).toEqual([]);
  });
});
