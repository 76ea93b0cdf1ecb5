import { parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { parsePixPayload } from '#shared/domain/payments/pix';
import { reaisToCentavos } from '#shared/money';
import { sellerFixtures } from '../support/fixtures';
import { pdfText } from '../support/pdf-text';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }));

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const today = () => saoPauloDate(runtime.clock.now());
const DAY_SECONDS = 86_400;

const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
  phone: '11987654321',
};

async function seller() {
  return fixtures.seller({
    named: 'Loja Híbrida',
    customer: { document: '52998224725' },
    product: {
      name: 'Curso de Violão',
      value: 1000,
      boleto: true,
      carne: { enabled: true, maxInstallments: 6, interestFactors: { '3': 1.0349 } },
    },
  });
}

/**
 * The boleto's pix, checked by our parser and by pix-utils (an independent implementation): a
 * dynamic BR Code (point of initiation 12, a location, no key) whose CRC holds, for `amount` Reais.
 */
function expectHybridPix(pixQrCode: unknown, amount: number) {
  expect(typeof pixQrCode).toBe('string');
  const ours = parsePixPayload(pixQrCode as string);
  expect(ours).toMatchObject({
    pointOfInitiation: 'singleUse',
    gui: 'br.gov.bcb.pix',
    key: undefined,
    location: expect.stringMatching(/\/cobv\//),
    currency: '986',
    country: 'BR',
    amountCentavos: reaisToCentavos(amount),
  });
  // pix-utils checks the CRC and the structure; a dynamic code's amount it leaves to the location.
  const oracle = parsePix(pixQrCode as string);
  expect(oracle, JSON.stringify(oracle)).toMatchObject({ type: 'DYNAMIC', countryCode: 'BR' });
  expect((oracle as { url: string }).url).toBe(ours.location);
  expect(topLevelFields(pixQrCode as string).get('54')).toBe(amount.toFixed(2));
}

/** The top-level EMV fields, read by hand (id, two-digit length, value). */
function topLevelFields(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let at = 0; at < payload.length; ) {
    const length = Number(payload.slice(at + 2, at + 4));
    fields.set(payload.slice(at, at + 2), payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

async function boletoSale(s: Awaited<ReturnType<typeof seller>>) {
  const res = await api.post('/api/transactions', {
    productId: s.product.uuid,
    paymentMethod: 'boleto',
    customer: buyer,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const succeeded = async (key: string, id: number) =>
  (await api.get(`/api/events?type=transaction.payment.succeeded&resourceId=${id}`, { token: key })).body
    .data as unknown[];

describe('the boleto híbrido', () => {
  it("a sale's boleto carries a dynamic pix BR Code of the same amount beside its linha digitável", async () => {
    const s = await seller();
    const sale = await boletoSale(s);
    expect(sale.boleto.formattedLine).toMatch(/^\d{5}\.\d{5} /);
    expectHybridPix(sale.boleto.pixQrCode, sale.value);
    const read = await api.get(`/api/transactions/${sale.id}`, { token: s.key });
    expect(read.body.boleto.pixQrCode).toBe(sale.boleto.pixQrCode);
    expect(read.body.paidWith).toBeNull();
    // The PDF prints the pix beside the barcode: its caption and its copia e cola text.
    const pdf = await fetch(sale.boleto.pdfUrl);
    expect(pdf.status).toBe(200);
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain('Pix: leia o QR Code');
    expect(text.replace(/\s/g, '')).toContain(sale.boleto.pixQrCode.replace(/\s/g, ''));
  });

  it('paying the pix settles the boleto once, and the boleto (or the pix again) is refused after it', async () => {
    const s = await seller();
    const sale = await boletoSale(s);
    const paid = await api.post(
      `/api/test-helpers/transactions/${sale.id}/pay`,
      { paidWith: 'pix' },
      { token: s.key },
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 'payedBoleto', paidWith: 'pix', paidAmount: 1000 });
    expect(await succeeded(s.key, sale.id)).toHaveLength(1);

    const asBoleto = await api.post(`/api/test-helpers/transactions/${sale.id}/pay`, undefined, {
      token: s.key,
    });
    expect(asBoleto.status, JSON.stringify(asBoleto.body)).toBe(409);
    const pixAgain = await api.post(
      `/api/test-helpers/transactions/${sale.id}/pay`,
      { paidWith: 'pix' },
      { token: s.key },
    );
    expect(pixAgain.status).toBe(409);
    const after = await api.get(`/api/transactions/${sale.id}`, { token: s.key });
    expect(after.body).toMatchObject({ status: 'payedBoleto', paidWith: 'pix', paidAmount: 1000 });
    expect(await succeeded(s.key, sale.id)).toHaveLength(1);
  });

  it('paying the boleto makes its pix unpayable', async () => {
    const s = await seller();
    const sale = await boletoSale(s);
    const paid = await api.post(`/api/test-helpers/transactions/${sale.id}/pay`, undefined, {
      token: s.key,
    });
    expect(paid.body).toMatchObject({ status: 'payedBoleto', paidWith: 'boleto' });
    const pix = await api.post(
      `/api/test-helpers/transactions/${sale.id}/pay`,
      { paidWith: 'pix' },
      { token: s.key },
    );
    expect(pix.status).toBe(409);
    expect(await succeeded(s.key, sale.id)).toHaveLength(1);
  });

  it("a carnê installment's boleto carries a payable pix, and paying it pays the installment", async () => {
    const s = await seller();
    const created = await api.post(
      '/api/v1/installment-plans',
      {
        productId: s.product.uuid,
        customerId: s.customer.id,
        installments: 3,
        firstDueDate: addDays(today(), 5),
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const first = created.body.installmentsDetail[0];
    expectHybridPix(first.boleto.pixQrCode, 344.97);
    const t = await api.get(`/api/transactions/${first.transactionId}`, { token: s.key });
    expect(t.body.boleto.pixQrCode).toBe(first.boleto.pixQrCode);
    // The booklet prints it on installment 1's slip (the only one issued).
    const booklet = await fetch(`${runtime.baseUrl}/api/v1/installment-plans/${created.body.uuid}/booklet`, {
      headers: { authorization: `Bearer ${s.key}` },
    });
    expect(booklet.status).toBe(200);
    const text = (await pdfText(new Uint8Array(await booklet.arrayBuffer()))).replace(/\s/g, '');
    expect(text).toContain(first.boleto.pixQrCode.replace(/\s/g, ''));
    expect(text.split('Pix:leiaoQRCode')).toHaveLength(2);

    const paid = await api.post(
      `/api/test-helpers/transactions/${first.transactionId}/pay`,
      { paidWith: 'pix' },
      { token: s.key },
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const plan = await api.get(`/api/v1/installment-plans/${created.body.uuid}`, { token: s.key });
    expect(plan.body).toMatchObject({ status: 'active', installmentsPaid: 1, totalCollected: 344.97 });
    expect(plan.body.installmentsDetail[0]).toMatchObject({ status: 'paid', paidAmount: 344.97 });
  });

  it("a scheduled charge's boleto carries a payable pix; paid by it 10 days late, it collects the fine and pro rata interest", async () => {
    const s = await seller();
    const dueDate = addDays(today(), 5);
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: s.customer.id,
        amount: 344.97,
        dueDate,
        methods: ['boleto'],
        type: 'one_time',
        fine: { type: 'percentage', value: 2 },
        interest: { percentPerMonth: 1 },
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const detail = await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key });
    const boleto = detail.body.cycles[0].issued.find(
      (t: { paymentMethod: string }) => t.paymentMethod === 'boleto',
    );
    expectHybridPix(boleto.boleto.pixQrCode, 344.97);

    await api.post('/api/test-helpers/clock/advance', { seconds: 15 * DAY_SECONDS });
    expect(today()).toBe(addDays(dueDate, 10));
    const paid = await api.post(
      `/api/test-helpers/transactions/${boleto.id}/pay`,
      { paidWith: 'pix' },
      { token: s.key },
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    // 344.97 + 2% (6.90) + 344.97 × 1% × 10/30 (1.15) = 353.02
    expect(paid.body).toMatchObject({
      status: 'payedBoleto',
      paidWith: 'pix',
      paidAmount: 353.02,
      fineAmount: 6.9,
      interestAmount: 1.15,
    });
    const after = await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key });
    expect(after.body.cycles[0]).toMatchObject({ status: 'paid', amountDue: null });
    expect(await succeeded(s.key, boleto.id)).toHaveLength(1);
  });

  it("a boleto-only cycle's reminder carries its boleto's pix copia e cola, beside the linha digitável", async () => {
    const s = await seller();
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: s.customer.id,
        amount: 80,
        dueDate: addDays(today(), 3),
        methods: ['boleto'],
        type: 'one_time',
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const detail = await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key });
    const boleto = detail.body.cycles[0].issued.find(
      (t: { paymentMethod: string }) => t.paymentMethod === 'boleto',
    );
    const preview = await api.post(
      '/api/reminder-schedule/preview',
      { step: 0, scheduledChargeId: created.body.id },
      { token: s.key },
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.email.text).toContain(boleto.boleto.formattedLine);
    expect(preview.body.email.text).toContain(`Pix copia e cola: ${boleto.boleto.pixQrCode}`);

    // The pay link shows it too (a boleto-only cycle has no pix section of its own).
    const page = await fetch(detail.body.cycles[0].payUrl);
    const html = await page.text();
    expect(html).toContain('<textarea id="boleto-pix-code" readonly rows="4">');
    expect(html).toContain(boleto.boleto.pixQrCode);
    expect(html).toMatch(/<img class="qr" id="boleto-pix-qr" src="data:image\/svg\+xml;base64,/);
  });

  it('refuses paidWith on anything but a pay', async () => {
    const s = await seller();
    const sale = await boletoSale(s);
    const fail = await api.post(
      `/api/test-helpers/transactions/${sale.id}/fail`,
      { paidWith: 'pix' },
      { token: s.key },
    );
    expect(fail.status).toBe(400);
    expect(fail.body.message).toEqual(['paidWith is only accepted when paying']);
  });
});
