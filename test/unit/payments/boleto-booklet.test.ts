import { describe, expect, it } from 'vitest';
import { buildBoleto } from '#shared/domain/payments/boleto';
import { type BookletSlip, boletoBookletPdf } from '#shared/domain/payments/boleto-booklet';
import { pdfText } from '#test/support/pdf-text';

const line = (n: number) =>
  buildBoleto({
    bankCode: '001',
    amountCentavos: 10_349,
    dueDate: `2026-0${n + 2}-20`,
    freeField: String(n).repeat(25),
  }).formattedLine;

const slip = (number: number, state: BookletSlip['state']): BookletSlip => ({
  number,
  amountCentavos: 10_349,
  dueDate: `2027-${String(number).padStart(2, '0')}-20`,
  state,
});

const booklet = (slips: BookletSlip[]) =>
  boletoBookletPdf({
    sellerName: 'Padaria da Ana',
    payerName: 'João da Silva',
    installments: slips.length,
    reference: 'a0000000-0000-4000-8000-000000000001',
    productName: 'Curso de violão',
    sandbox: true,
    slips,
  });

const pageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
const RECT = /^[\d.]+ [\d.]+ [\d.]+ [\d.]+ re f$/gm;

describe('boletoBookletPdf', () => {
  it.each([
    [1, 1],
    [3, 1],
    [4, 2],
    [7, 3],
    [12, 4],
  ])('puts %i slips on %i A4 pages, three to a page', (slips, pages) => {
    const pdf = booklet(Array.from({ length: slips }, (_, k) => slip(k + 1, { kind: 'not_issued' })));
    expect(pageCount(pdf)).toBe(pages);
    expect(pdf.toString('latin1')).toMatch(new RegExp(`/Count ${pages} >>`));
  });

  it('prints each issued boleto with its linha digitável and barcode, and says what the others are', async () => {
    const pdf = booklet([
      slip(1, { kind: 'paid', paidOn: '2026-03-19' }),
      slip(2, { kind: 'boleto', digitableLine: line(2) }),
      slip(3, { kind: 'boleto', digitableLine: line(3) }),
      slip(4, { kind: 'not_issued' }),
      slip(5, { kind: 'canceled' }),
    ]);
    const text = await pdfText(pdf);
    expect(text).toContain(line(2));
    expect(text).toContain(line(3));
    expect(text).toContain('Parcela paga em 19/03/2026');
    expect(text).toContain('Boleto ainda não emitido');
    expect(text).toContain('Parcela cancelada');
    expect(text).toContain('Parcela 4 de 5');
    expect(text.match(/Padaria da Ana/g)?.length).toBe(10);
    expect(text).toContain('João da Silva');
    expect(text).toContain('Beneficiário');
    expect(text).toContain('Linha digitável');
    expect(text).toContain('R$ 103,49');
    expect(text).toContain('20/03/2027');
    // Two barcodes of 114 bars: a paid, unissued or canceled slip has none.
    expect(pdf.toString('latin1').match(RECT)).toHaveLength(228);
  });

  it('prints a line that is no bank boleto line as given, without bars that could disagree', async () => {
    const pdf = booklet([slip(1, { kind: 'boleto', digitableLine: '1234 5678' })]);
    expect(await pdfText(pdf)).toContain('1234 5678');
    expect(pdf.toString('latin1').match(RECT)).toBeNull();
  });
});
