/**
 * Pix "copia e cola" (BR Code): EMV merchant-presented QR payloads as Banco Central specifies them.
 * Values are kept to printable ASCII so that a field's length in characters is its length in bytes,
 * which is what the EMV length prefix counts and what the CRC is computed over.
 */

export interface PixPayloadInput {
  /** Static payload: the receiver's Pix key (≤77 characters). */
  key?: string;
  /** Dynamic payload: the PSP location URL; a leading `https://` is dropped, as the spec requires. */
  locationUrl?: string;
  amountCentavos?: number;
  merchantName: string;
  merchantCity: string;
  /** 1–25 `[A-Za-z0-9]`, or `***` when the payer's app must not send one. */
  txid: string;
  /** Point of initiation 12; defaults to true for a location payload, false for a key payload. */
  singleUse?: boolean;
}

export interface PixPayloadFields {
  payloadFormat: string;
  pointOfInitiation?: 'static' | 'singleUse';
  gui: string;
  key?: string;
  info?: string;
  location?: string;
  mcc: string;
  currency: string;
  amount?: string;
  amountCentavos?: number;
  country: string;
  merchantName: string;
  merchantCity: string;
  txid?: string;
  crc: string;
}

const GUI = 'br.gov.bcb.pix';
const TXID = /^(?:[A-Za-z0-9]{1,25}|\*\*\*)$/;
// "9999999999.99" is the longest amount that fits the 13 characters of field 54.
const MAX_PIX_CENTAVOS = 999_999_999_999;

export function crc16ccitt(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function tlv(id: string, value: string): string {
  if (value.length > 99) throw new Error(`Pix field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Accents stripped (São Paulo → Sao Paulo), anything left outside printable ASCII dropped. */
function toAscii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function fitted(field: string, text: string, max: number): string {
  const ascii = toAscii(text).slice(0, max).trim();
  if (ascii === '') throw new Error(`Pix ${field} is empty once reduced to ASCII`);
  return ascii;
}

/** Centavos to "123.99" by splitting the decimal digits, never by dividing a float. */
function formatAmount(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos <= 0 || centavos > MAX_PIX_CENTAVOS) {
    throw new Error(`Pix amount must be a positive integer of centavos up to ${MAX_PIX_CENTAVOS}`);
  }
  const digits = String(centavos).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function merchantAccount(input: PixPayloadInput): string {
  const gui = tlv('00', GUI);
  if ((input.key === undefined) === (input.locationUrl === undefined)) {
    throw new Error('A Pix payload needs exactly one of key (static) or locationUrl (dynamic)');
  }
  if (input.key !== undefined) {
    if (!/^[\x20-\x7e]{1,77}$/.test(input.key)) {
      throw new Error('Pix key must be 1–77 printable ASCII characters');
    }
    return tlv('26', gui + tlv('01', input.key));
  }
  const location = (input.locationUrl ?? '').replace(/^https:\/\//i, '');
  if (!/^[\x21-\x7e]{1,77}$/.test(location) || location.includes('://')) {
    throw new Error('Pix location must be an https URL of at most 77 characters without the scheme');
  }
  return tlv('26', gui + tlv('25', location));
}

export function buildPixPayload(input: PixPayloadInput): string {
  if (!TXID.test(input.txid)) throw new Error('Pix txid must be 1–25 letters or digits, or ***');
  const singleUse = input.singleUse ?? input.locationUrl !== undefined;
  const body = [
    tlv('00', '01'),
    tlv('01', singleUse ? '12' : '11'),
    merchantAccount(input),
    tlv('52', '0000'),
    tlv('53', '986'),
    input.amountCentavos === undefined ? '' : tlv('54', formatAmount(input.amountCentavos)),
    tlv('58', 'BR'),
    tlv('59', fitted('merchant name', input.merchantName, 25)),
    tlv('60', fitted('merchant city', input.merchantCity, 15)),
    tlv('62', tlv('05', input.txid)),
  ].join('');
  const withCrcHeader = `${body}6304`;
  return withCrcHeader + crc16ccitt(withCrcHeader);
}

/** Splits a TLV run into id → value, rejecting truncated or repeated fields. */
function readTlv(text: string, where: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const head = text.slice(at, at + 4);
    if (!/^\d{4}$/.test(head)) throw new Error(`Malformed Pix TLV in ${where} at position ${at}`);
    const id = head.slice(0, 2);
    const length = Number(head.slice(2));
    const value = text.slice(at + 4, at + 4 + length);
    if (value.length !== length) throw new Error(`Pix field ${id} in ${where} is truncated`);
    if (fields.has(id)) throw new Error(`Pix field ${id} appears twice in ${where}`);
    fields.set(id, value);
    at += 4 + length;
  }
  return fields;
}

function required(fields: Map<string, string>, id: string): string {
  const value = fields.get(id);
  if (value === undefined || value === '') throw new Error(`Pix field ${id} is missing`);
  return value;
}

/** "10", "10.5" and "10.50" are all valid EMV amounts; centavos come from the digits, not a float. */
function amountToCentavos(amount: string): number {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!m || amount.length > 13) throw new Error(`Pix amount "${amount}" is not a decimal amount`);
  return Number(m[1] + (m[2] ?? '').padEnd(2, '0'));
}

/** Decodes and checks a payload from any issuer; written apart from the builder so tests cross-check it. */
export function parsePixPayload(payload: string): PixPayloadFields {
  const m = /^(.*6304)([0-9A-Fa-f]{4})$/s.exec(payload);
  if (!m) throw new Error('Pix payload does not end with a CRC field (6304XXXX)');
  const [, covered, crc] = m;
  if (crc16ccitt(covered).toUpperCase() !== crc.toUpperCase()) throw new Error('Pix payload CRC mismatch');
  const fields = readTlv(payload, 'payload');
  if (!payload.startsWith('000201')) throw new Error('Pix payload must start with format indicator 01');
  if ([...fields.keys()].at(-1) !== '63') throw new Error('Pix CRC must be the last field');

  // The Pix account may sit in any merchant account template (26–51); it is the one whose GUI is Pix.
  const account = [...fields]
    .filter(([id]) => Number(id) >= 26 && Number(id) <= 51)
    .map(([, value]) => readTlv(value, 'merchant account'))
    .find((sub) => sub.get('00')?.toLowerCase() === GUI);
  if (!account) throw new Error('Pix payload has no br.gov.bcb.pix merchant account');

  const initiation = fields.get('01');
  if (initiation !== undefined && initiation !== '11' && initiation !== '12') {
    throw new Error(`Pix point of initiation "${initiation}" is neither 11 nor 12`);
  }
  if (!account.has('01') && !account.has('25'))
    throw new Error('Pix account has neither a key nor a location');
  const currency = required(fields, '53');
  if (currency !== '986') throw new Error(`Pix currency ${currency} is not BRL (986)`);
  const amount = fields.get('54');
  const additional = fields.has('62') ? readTlv(fields.get('62') ?? '', 'additional data') : undefined;
  const txid = additional?.get('05');
  if (txid !== undefined && !TXID.test(txid)) throw new Error(`Pix txid "${txid}" is not valid`);

  return {
    payloadFormat: required(fields, '00'),
    pointOfInitiation: initiation === undefined ? undefined : initiation === '12' ? 'singleUse' : 'static',
    gui: account.get('00') ?? GUI,
    key: account.get('01'),
    info: account.get('02'),
    location: account.get('25'),
    mcc: required(fields, '52'),
    currency,
    amount,
    amountCentavos: amount === undefined ? undefined : amountToCentavos(amount),
    country: required(fields, '58'),
    merchantName: required(fields, '59'),
    merchantCity: required(fields, '60'),
    txid,
    crc: crc.toUpperCase(),
  };
}
