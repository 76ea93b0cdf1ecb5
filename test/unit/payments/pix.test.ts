import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPixPayload, crc16ccitt, parsePixPayload } from '#shared/domain/payments/pix';

const OFFICIAL =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR' +
  '5913Fulano de Tal6008BRASILIA62070503***63041D3D';

const base = { merchantName: 'Loja Exemplo', merchantCity: 'Sao Paulo', txid: 'PEDIDO123' };

/** Walks the top-level TLV and returns [id, declared length, value] triples. */
function topLevel(payload: string): [string, number, string][] {
  const out: [string, number, string][] = [];
  for (let at = 0; at < payload.length; ) {
    const id = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    out.push([id, length, payload.slice(at + 4, at + 4 + length)]);
    at += 4 + length;
  }
  return out;
}

describe('crc16ccitt', () => {
  it('matches the CCITT-FALSE check value for "123456789"', () => {
    expect(crc16ccitt('123456789')).toBe('29B1');
  });

  it('gives the official BR Code vector its CRC 1D3D', () => {
    expect(crc16ccitt(OFFICIAL.slice(0, -4))).toBe('1D3D');
  });

  it('pads to 4 uppercase hex digits', () => {
    expect(crc16ccitt('')).toBe('FFFF');
    expect(crc16ccitt('abc')).toMatch(/^[0-9A-F]{4}$/);
  });
});

describe('parsePixPayload', () => {
  it('decodes and validates the official Banco Central vector', () => {
    expect(parsePixPayload(OFFICIAL)).toEqual({
      payloadFormat: '01',
      pointOfInitiation: undefined,
      gui: 'br.gov.bcb.pix',
      key: '123e4567-e12b-12d1-a456-426655440000',
      info: undefined,
      location: undefined,
      mcc: '0000',
      currency: '986',
      amount: undefined,
      amountCentavos: undefined,
      country: 'BR',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      txid: '***',
      crc: '1D3D',
    });
  });

  it('rejects the official vector with any single character changed', () => {
    for (const position of [0, 10, 30, 60, 90, 110, OFFICIAL.length - 9]) {
      const original = OFFICIAL[position];
      const changed = original === 'X' ? 'Y' : 'X';
      const tampered = OFFICIAL.slice(0, position) + changed + OFFICIAL.slice(position + 1);
      expect(() => parsePixPayload(tampered), `position ${position}`).toThrow();
    }
  });

  it('reports a CRC mismatch when a value changes but the structure stays valid', () => {
    expect(() => parsePixPayload(OFFICIAL.replace('Fulano', 'Fulana'))).toThrow(/CRC mismatch/);
    expect(() => parsePixPayload(OFFICIAL.replace(/1D3D$/, '1D3E'))).toThrow(/CRC mismatch/);
  });

  it('accepts a lowercase CRC from a lenient issuer', () => {
    expect(parsePixPayload(OFFICIAL.replace(/1D3D$/, '1d3d')).crc).toBe('1D3D');
  });

  it('rejects a payload without the CRC field', () => {
    expect(() => parsePixPayload(OFFICIAL.slice(0, -8))).toThrow(/CRC field/);
  });

  it('rejects a truncated field even when the CRC is recomputed', () => {
    const body = '000201010211265000';
    const payload = `${body}6304${crc16ccitt(`${body}6304`)}`;
    expect(() => parsePixPayload(payload)).toThrow();
  });

  it('rejects a payload whose merchant account is not Pix', () => {
    const body = '00020126190015com.example.pay5204000053039865802BR5901A6001B';
    const payload = `${body}6304${crc16ccitt(`${body}6304`)}`;
    expect(() => parsePixPayload(payload)).toThrow(/br.gov.bcb.pix/);
  });

  it('reads amounts with one or no decimal digit into exact centavos', () => {
    for (const [amount, centavos] of [
      ['10', 1000],
      ['10.5', 1050],
      ['0.07', 7],
    ] as const) {
      const body =
        '00020126330014br.gov.bcb.pix0111123456789015204000053039865' +
        `4${String(amount.length).padStart(2, '0')}${amount}` +
        '5802BR5901A6001B62070503***';
      const parsed = parsePixPayload(`${body}6304${crc16ccitt(`${body}6304`)}`);
      expect(parsed.amountCentavos).toBe(centavos);
    }
  });
});

describe('buildPixPayload', () => {
  it('builds a static payload with the fields in order and a valid CRC', () => {
    const payload = buildPixPayload({ ...base, key: 'pix@example.com', amountCentavos: 12399 });
    expect(topLevel(payload).map(([id]) => id)).toEqual([
      '00',
      '01',
      '26',
      '52',
      '53',
      '54',
      '58',
      '59',
      '60',
      '62',
      '63',
    ]);
    expect(payload).toMatch(/^000201010211/);
    expect(payload).toContain('5406123.99');
    expect(payload).toContain('26370014br.gov.bcb.pix0115pix@example.com');
    expect(payload).toContain('62130509PEDIDO123');
    expect(payload.slice(-8, -4)).toBe('6304');
    expect(payload.slice(-4)).toBe(crc16ccitt(payload.slice(0, -4)));
  });

  it('declares lengths that equal the value lengths for ASCII payloads', () => {
    const payload = buildPixPayload({ ...base, key: '+5511999998888', amountCentavos: 1 });
    const fields = topLevel(payload);
    expect(fields.map(([, , value]) => value.length)).toEqual(fields.map(([, length]) => length));
    expect(fields.reduce((sum, [, length]) => sum + 4 + length, 0)).toBe(payload.length);
    expect(Buffer.byteLength(payload, 'utf8')).toBe(payload.length);
  });

  it('builds a dynamic, single-use payload with the location and no scheme', () => {
    const payload = buildPixPayload({
      ...base,
      locationUrl: 'https://pix.example.com/qr/v2/cobv/9d36b84f',
      txid: '***',
    });
    const parsed = parsePixPayload(payload);
    expect(parsed.pointOfInitiation).toBe('singleUse');
    expect(parsed.location).toBe('pix.example.com/qr/v2/cobv/9d36b84f');
    expect(parsed.key).toBeUndefined();
    expect(payload).toMatch(/^000201010212/);
  });

  it('lets a key payload be marked single use and a location payload reusable', () => {
    expect(parsePixPayload(buildPixPayload({ ...base, key: 'k', singleUse: true })).pointOfInitiation).toBe(
      'singleUse',
    );
    expect(
      parsePixPayload(buildPixPayload({ ...base, locationUrl: 'pix.example.com/x', singleUse: false }))
        .pointOfInitiation,
    ).toBe('static');
  });

  it('omits the amount field when no amount is given', () => {
    const payload = buildPixPayload({ ...base, key: 'pix@example.com' });
    expect(topLevel(payload).some(([id]) => id === '54')).toBe(false);
    expect(parsePixPayload(payload).amount).toBeUndefined();
  });

  it.each([
    [1, '0.01'],
    [7, '0.07'],
    [10, '0.10'],
    [100, '1.00'],
    [4990, '49.90'],
    [999_999_999_999, '9999999999.99'],
  ])('formats %s centavos as "%s"', (centavos, amount) => {
    const parsed = parsePixPayload(buildPixPayload({ ...base, key: 'k', amountCentavos: centavos }));
    expect(parsed.amount).toBe(amount);
    expect(parsed.amountCentavos).toBe(centavos);
  });

  it('strips accents and truncates the merchant name to 25 and the city to 15 characters', () => {
    const parsed = parsePixPayload(
      buildPixPayload({
        ...base,
        key: 'k',
        merchantName: 'Açaí & Pão de Queijo da Conceição Ltda',
        merchantCity: 'São José dos Campos',
      }),
    );
    expect(parsed.merchantName).toBe('Acai & Pao de Queijo da C');
    expect(parsed.merchantCity).toBe('Sao Jose dos Ca');
  });

  it.each([
    ['no key nor location', { ...base }],
    ['both key and location', { ...base, key: 'k', locationUrl: 'pix.example.com/x' }],
    ['a plain http location', { ...base, locationUrl: 'http://pix.example.com/x' }],
    ['a key over 77 characters', { ...base, key: 'k'.repeat(78) }],
    ['a txid with a hyphen', { ...base, key: 'k', txid: 'ab-12' }],
    ['a txid over 25 characters', { ...base, key: 'k', txid: 'a'.repeat(26) }],
    ['an empty txid', { ...base, key: 'k', txid: '' }],
    ['a zero amount', { ...base, key: 'k', amountCentavos: 0 }],
    ['a fractional amount', { ...base, key: 'k', amountCentavos: 10.5 }],
    ['an amount over 13 characters', { ...base, key: 'k', amountCentavos: 1_000_000_000_000 }],
    ['a name with no ASCII left', { ...base, key: 'k', merchantName: '北京' }],
    ['an empty city', { ...base, key: 'k', merchantCity: '  ' }],
  ])('rejects %s', (_, input) => {
    expect(() => buildPixPayload(input)).toThrow();
  });

  it('round-trips random amounts, txids, keys and names through the independent parser', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 999_999_999_999 }), { nil: undefined }),
        fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{1,25}$/), fc.constant('***')),
        fc.stringMatching(/^[A-Za-z0-9@.+-]{1,77}$/),
        fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,24}$/),
        fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,14}$/),
        (amountCentavos, txid, key, name, city) => {
          const payload = buildPixPayload({
            key,
            amountCentavos,
            merchantName: name,
            merchantCity: city,
            txid,
          });
          const parsed = parsePixPayload(payload);
          expect(parsed.amountCentavos).toBe(amountCentavos);
          expect(parsed.txid).toBe(txid);
          expect(parsed.key).toBe(key);
          expect(parsed.merchantName).toBe(name.replace(/\s+/g, ' ').trim());
          expect(parsed.merchantCity).toBe(city.replace(/\s+/g, ' ').trim());
          expect(parsed.pointOfInitiation).toBe('static');
        },
      ),
      { numRuns: 300 },
    );
  });
});
