import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { transactionEntity } from '#shared/adapters/dynamodb/entities/transaction';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { sellerFixtures } from '../support/fixtures';
import { eventually, Receiver } from '../support/receiver';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 91_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '11987654321',
};

/** A CSV body as Excel pt-BR reads it: BOM, `;` fields, CRLF lines, "" inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ';') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  expect(field, 'the file ends with a line break').toBe('');
  return rows;
}

async function download(path: string, token: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${runtime.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, text: bytes.toString('utf8') };
}

describe('exporting transactions as CSV', () => {
  it('writes every one of 10,000 transactions, with a BOM, `;`, comma decimals and Sao Paulo dates', async () => {
    const s = await fixtures.seller({ product: { value: 1234.5 } });
    const sale = await api.post('/api/transactions', {
      productId: s.product.uuid,
      paymentMethod: 'pix',
      customer: buyer,
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    const stored = (await runtime.deps.repos.transactions.get(s.tenant, sale.body.id)) as Transaction;
    // Seeded straight into the table (the sale's item only: the export reads the seller's partition),
    // one day apart per 1,000, ids above the real sale's.
    const start = Date.parse('2026-03-01T02:59:00.000Z'); // 28/02 23:59 in Sao Paulo
    const seeded = Array.from({ length: 9_999 }, (_, i): Transaction => {
      const createdAt = new Date(start + Math.floor(i / 1_000) * 86_400_000 + i * 1_000).toISOString();
      return {
        ...stored,
        id: stored.id + 1 + i,
        uuid: randomUUID(),
        gatewayPayId: stored.gatewayPayId + 1 + i,
        value: 1_000 + i,
        createdAt,
        updatedAt: createdAt,
        customer: { ...stored.customer, name: i === 0 ? '=HYPERLINK("http://x.example")' : `Cliente ${i}` },
      };
    });
    const { table } = runtime.deps;
    const batches = Array.from({ length: Math.ceil(seeded.length / 25) }, (_, b) =>
      seeded.slice(b * 25, b * 25 + 25),
    );
    for (let i = 0; i < batches.length; i += 8) {
      await Promise.all(
        batches.slice(i, i + 8).map(async (batch) => {
          let requests = batch.map((t) => ({ PutRequest: { Item: transactionEntity.toItem(t) } }));
          while (requests.length > 0) {
            const out = await table.doc.send(
              new BatchWriteCommand({ RequestItems: { [table.name]: requests } }),
            );
            requests = (out.UnprocessedItems?.[table.name] ?? []) as typeof requests;
          }
        }),
      );
    }

    const { res, bytes, text } = await download('/api/transactions/export', s.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="transacoes-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.headers.get('x-next-cursor')).toBeNull();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(text.slice(1));
    expect(rows[0]).toEqual([
      'ID',
      'Data',
      'Hora',
      'Status',
      'Forma de pagamento',
      'Parcelas',
      'Valor (R$)',
      'Valor líquido (R$)',
      'Reembolsado (R$)',
      'Produto',
      'Cliente',
      'E-mail',
      'CPF/CNPJ',
      'Telefone',
      'Pago em',
      'Vencimento',
      'ID no provedor',
    ]);
    expect(rows).toHaveLength(1 + 10_000);
    const ids = rows.slice(1).map((r) => Number(r[0]));
    expect(new Set(ids).size).toBe(10_000);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // The real sale, last (oldest): R$ 1.234,50 with comma decimals, its masked buyer.
    expect(rows.at(-1)).toEqual(
      expect.arrayContaining([
        String(sale.body.id),
        'Pix pendente',
        'Pix',
        '1234,50',
        '52998224725'.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4'),
        '(11) 98765-4321',
      ]),
    );
    // The first seeded one: created 28/02/2026 at 23:59 in Sao Paulo (02:59 UTC on 01/03), R$ 10,00.
    const first = rows.find((r) => r[0] === String(stored.id + 1)) as string[];
    expect(first.slice(1, 3)).toEqual(['28/02/2026', '23:59']);
    expect(first[6]).toBe('10,00');
    // A buyer's name that is a formula is text, defused.
    expect(first[10]).toBe(`'=HYPERLINK("http://x.example")`);
    expect(text).toContain(`"'=HYPERLINK(""http://x.example"")"`);
  }, 120_000);

  it("exports the list's filter: a date range and a search, with the list's own rows", async () => {
    const s = await fixtures.seller({ product: {} });
    const other = { ...buyer, name: 'João Pereira', email: 'joao@example.com', document: '111.444.777-35' };
    for (const customer of [buyer, other, buyer])
      expect(
        (
          await api.post('/api/transactions', {
            productId: s.product.uuid,
            paymentMethod: 'boleto',
            customer,
          })
        ).status,
      ).toBe(201);
    const list = await api.get('/api/transactions?search=maria&limit=1', { token: s.key });
    expect(list.body).toMatchObject({ count: 1, page: 1, totalPages: 2 });
    const next = await api.get(`/api/transactions?search=maria&limit=1&cursor=${list.body.nextCursor}`, {
      token: s.key,
    });
    expect(next.body).toMatchObject({ count: 1, page: null, totalPages: null, nextCursor: null });
    expect(next.body.data[0].id).toBeLessThan(list.body.data[0].id);

    const searched = parseCsv((await download('/api/transactions/export?search=maria', s.key)).text.slice(1));
    expect(searched.slice(1).map((r) => Number(r[0]))).toEqual([list.body.data[0].id, next.body.data[0].id]);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
      runtime.clock.now(),
    );
    const inRange = parseCsv(
      (await download(`/api/transactions/export?from=${today}&to=${today}`, s.key)).text.slice(1),
    );
    expect(inRange).toHaveLength(4);
    const before = parseCsv((await download('/api/transactions/export?to=2020-01-01', s.key)).text.slice(1));
    expect(before).toHaveLength(1);

    const bad = await api.get('/api/transactions/export?from=2026-02-30', { token: s.key });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(['from must be a date YYYY-MM-DD']);
    const reversed = await api.get('/api/transactions/export?from=2026-02-10&to=2026-02-01', {
      token: s.key,
    });
    expect(reversed.body.message).toEqual(['from must not be after to']);
  });

  it("answers only the caller's own transactions, and 401 without a key", async () => {
    const a = await fixtures.seller({ product: {} });
    const b = await fixtures.seller();
    expect(
      (
        await api.post('/api/transactions', {
          productId: a.product.uuid,
          paymentMethod: 'pix',
          customer: buyer,
        })
      ).status,
    ).toBe(201);
    expect(parseCsv((await download('/api/transactions/export', b.key)).text.slice(1))).toHaveLength(1);
    expect((await fetch(`${runtime.baseUrl}/api/transactions/export`)).status).toBe(401);
  });
});

describe('exporting customers as CSV', () => {
  it('writes every customer of the seller (by cursor) and a search, through the JWT as well', async () => {
    const s = await fixtures.seller();
    const docs = ['52998224725', '11144477735', '39053344705'];
    for (const [i, document] of docs.entries()) {
      const res = await api.post(
        '/api/v1/customers',
        {
          name: i === 0 ? '@Maria; "Souza"' : `Cliente ${i}`,
          email: `c${i}@example.com`,
          document,
          phone: '1133334444',
          personType: 'fisica',
          zipCode: '01310-100',
        },
        { token: s.key },
      );
      expect(res.status).toBe(201);
    }
    const { res, text } = await download('/api/v1/customers/export', s.jwt, { 'x-environment': 'test' });
    expect(res.status).toBe(200);
    const rows = parseCsv(text.slice(1));
    expect(rows[0].slice(0, 5)).toEqual(['ID', 'Nome', 'E-mail', 'E-mail de cobrança', 'CPF/CNPJ']);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['Cliente 2', 'Cliente 1', `'@Maria; "Souza"`]);
    expect(rows[3]).toEqual(
      expect.arrayContaining(['529.982.247-25', 'Pessoa física', '(11) 3333-4444', '01310-100']),
    );
    const searched = parseCsv(
      (await download('/api/v1/customers/export?search=cliente', s.key)).text.slice(1),
    );
    expect(searched.slice(1).map((r) => r[1])).toEqual(['Cliente 2', 'Cliente 1']);
  });
});

describe('the reads of the sales views', () => {
  it("answers a sale's timeline: provider ids, status changes, its events and their webhook deliveries", async () => {
    const receiver = await new Receiver().start();
    try {
      const s = await fixtures.seller({ product: {} });
      const endpoint = await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['*'] },
        { token: s.key },
      );
      expect(endpoint.status).toBe(201);
      const sale = (
        await api.post('/api/transactions', {
          productId: s.product.uuid,
          paymentMethod: 'pix',
          customer: buyer,
        })
      ).body;
      expect(
        (await api.post(`/api/test-helpers/transactions/${sale.id}/pay`, {}, { token: s.key })).status,
      ).toBe(200);
      expect(
        (
          await api.post(
            `/api/transactions/${sale.id}/refund`,
            { amount: 10, reason: 'Troca' },
            { token: s.key },
          )
        ).status,
      ).toBe(200);
      await eventually(async () => {
        const res = await api.get(`/api/transactions/${sale.id}/timeline`, { token: s.key });
        return (
          res.body.events.length >= 2 &&
          res.body.events.every((e: any) => e.deliveries[0]?.status === 'succeeded')
        );
      });
      const timeline = (await api.get(`/api/transactions/${sale.id}/timeline`, { token: s.key })).body;
      expect(timeline.provider).toEqual({
        name: 'sandbox',
        gatewayPayId: sale.gatewayPayId,
        pixTxid: sale.pix.txid,
        boletoBarcode: null,
      });
      expect(timeline.statusChanges.map((c: any) => [c.step, c.amount, c.detail])).toEqual([
        ['created', 100, null],
        ['paid', null, null],
        ['refunded', 10, 'Troca'],
      ]);
      const names = timeline.events.map((e: any) => e.event);
      expect(names[0]).toBe('transaction.created');
      expect(names).toContain('transaction.payment.succeeded');
      expect(timeline.events[0].deliveries[0]).toMatchObject({
        endpointId: endpoint.body.id,
        eventId: timeline.events[0].id,
      });

      // Another seller's sale answers as a missing one.
      const other = await fixtures.seller();
      const foreign = await api.get(`/api/transactions/${sale.id}/timeline`, { token: other.key });
      const missing = await api.get('/api/transactions/999999/timeline', { token: other.key });
      expect(foreign.status).toBe(404);
      expect(foreign.body.message).toBe(missing.body.message);
    } finally {
      await receiver.stop();
    }
  });

  it("reads one customer by uuid, and another seller's customer answers as a missing one", async () => {
    const s = await fixtures.seller({ customer: {} });
    const res = await api.get(`/api/v1/customers/${s.customer.uuid}`, { token: s.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(s.customer);
    const other = await fixtures.seller();
    const foreign = await api.get(`/api/v1/customers/${s.customer.uuid}`, { token: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Customer not found');
  });
});
