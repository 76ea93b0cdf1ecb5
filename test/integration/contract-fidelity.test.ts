import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { cpfCheckDigits } from '#shared/domain/documents';
import pkg from '../../package.json' with { type: 'json' };
import { buyer, card, prefill } from '../support/checkout-fixtures';
import { sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let receiver: Receiver;
useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});
beforeAll(async () => {
  receiver = await new Receiver().start();
});
afterAll(() => receiver?.stop());

const delivered = (event: string, match: (data: any) => boolean) =>
  receiver.received.filter((r) => r.json?.event === event && match(r.json.data)).map((r) => r.json.data);

async function subscribe(key: string, events: string[]) {
  const res = await api.post('/api/webhook-endpoints', { url: receiver.url, events }, { token: key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function post(key: string, path: string, body: unknown) {
  const res = await api.post(path, body, { token: key });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

const fixtures = sellerFixtures(() => ({ runtime, api }), 320_000);
/** A seller nobody else uses, with a sandbox API key. */
const freshSeller = () => fixtures.seller();

const releaseParts = (v: string) => v.split('.').map(Number);

describe('the release number', () => {
  it('is the package version, at least 0.8.2, on /api/health and in the OpenAPI info', async () => {
    const [major, minor, patch] = releaseParts(pkg.version);
    expect(major * 1_000_000 + minor * 1_000 + patch).toBeGreaterThanOrEqual(8_002);
    const health = await api.get('/api/health');
    expect(health.body.version).toBe(pkg.version);
    expect((await api.get('/api/health/db')).body.version).toBe(pkg.version);
    const doc = await api.get('/api/openapi.json');
    expect(doc.body.info.version).toBe(pkg.version);
  });
});

async function createProduct(key: string, body: Record<string, unknown> = {}) {
  const res = await api.post(
    '/api/products',
    { name: 'Curso de Violão', image: 'https://cdn.example.com/v.png', value: 49.9, ...body },
    { token: key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string };
}

describe('DELETE /api/products/{id}/portal-config', () => {
  it('answers 200 whether or not the product had a configuration, and 404 only for an unknown product', async () => {
    const { key } = await freshSeller();
    const product = await createProduct(key);
    const path = `/api/products/${product.uuid}/portal-config`;
    const none = await api.del(path, { token: key });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ productId: product.id, deleted: false });
    expect((await api.post(path, { businessName: 'Loja' }, { token: key })).status).toBe(200);
    const removed = await api.del(`/api/products/${product.id}/portal-config`, { token: key });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ productId: product.id, deleted: true });
    expect((await api.get(path, { token: key })).body).toBeNull();
    expect((await api.del(path, { token: key })).body.deleted).toBe(false);
    const other = await freshSeller();
    const foreign = await api.del(path, { token: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Product not found');
  });
});

describe('subscription events of a Pix Automático subscription', () => {
  it('carry paymentMethod "pix_automatic"; a card subscription keeps its saved card there', async () => {
    const { key } = await freshSeller();
    await subscribe(key, ['subscription.created', 'subscription.activated']);
    const product = await createProduct(key, { value: 100 });
    const price = await post(key, `/api/products/${product.id}/prices`, {
      name: 'Mensal',
      unitAmount: 49.9,
      billingInterval: 'month',
    });
    const session = () =>
      post(key, '/api/checkout/sessions', {
        product_id: product.id,
        price_id: price.uuid,
        customer: prefill,
      });

    const byPix = await session();
    const pending = await api.post(`/api/public/checkout/${byPix.id}/pay`, {
      customer: buyer,
      paymentMethod: 'pix',
    });
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    const t = (await api.get('/api/transactions', { token: key })).body.data[0];
    expect((await api.post(`/api/test-helpers/transactions/${t.id}/pay`, {}, { token: key })).status).toBe(
      200,
    );
    const pixSub = (d: any) => d.id === t.subscriptionId;
    await waitFor(() => delivered('subscription.activated', pixSub).length === 1);
    for (const event of ['subscription.created', 'subscription.activated']) {
      expect(delivered(event, pixSub)[0]).toMatchObject({
        collectionMethod: 'pix_automatic',
        paymentMethod: 'pix_automatic',
      });
    }
    // The API's read keeps the resource's shape: no saved card.
    expect(
      (await api.get(`/api/subscriptions/${t.subscriptionId}`, { token: key })).body.paymentMethod,
    ).toBeNull();

    const byCard = await session();
    const paid = await api.post(`/api/public/checkout/${byCard.id}/pay`, {
      customer: buyer,
      paymentMethod: 'card',
      card: card('4111111111111111'),
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const cardSub = (d: any) => d.collectionMethod === 'card';
    await waitFor(() => delivered('subscription.activated', cardSub).length === 1);
    expect(delivered('subscription.activated', cardSub)[0].paymentMethod).toMatchObject({
      id: expect.any(Number),
      cardLast4: '1111',
    });
  });
});

describe('the legacy transaction.failed', () => {
  it('is delivered to an endpoint that names it, never through *', async () => {
    const { key } = await freshSeller();
    const named = await subscribe(key, ['transaction.failed']);
    const everything = await subscribe(key, ['*']);
    const product = await createProduct(key);
    const declined = await api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'creditcard',
      customer: buyer,
      card: card('4000000000000002'),
    });
    expect(declined.status, JSON.stringify(declined.body)).toBe(201);
    expect(declined.body.status).toBe('denied');
    const ofSale = (d: any) => d.id === declined.body.id;
    await waitFor(() => delivered('transaction.failed', ofSale).length === 1);
    await waitFor(() => delivered('transaction.payment.failed', ofSale).length === 1);
    const deliveries = async (endpointId: string) =>
      (await api.get(`/api/webhook-endpoints/${endpointId}/deliveries`, { token: key })).body.data.map(
        (d: { event: string }) => d.event,
      );
    // The receiver has the event before the attempt's record is written: wait for the record.
    let recorded: string[] = [];
    for (let tries = 0; tries < 100 && recorded.length === 0; tries++) {
      recorded = await deliveries(named.id);
      if (recorded.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(recorded).toEqual(['transaction.failed']);
    expect(await deliveries(everything.id)).not.toContain('transaction.failed');
    expect(delivered('transaction.failed', ofSale)[0]).toMatchObject({ failureCode: 'card_declined' });
  });

  it('is listed as deprecated in the OpenAPI document', async () => {
    const doc = (await api.get('/api/openapi.json')).body;
    for (const [path, method] of [
      ['/api/webhook-endpoints', 'post'],
      ['/api/webhook-endpoints/{id}', 'patch'],
    ]) {
      const events = doc.paths[path][method].requestBody.content['application/json'].schema.properties.events;
      const names: { enum?: string[]; const?: string; deprecated?: boolean }[] = events.items.anyOf;
      expect(names.find((n) => n.const === 'transaction.failed')?.deprecated).toBe(true);
      expect(names[0].enum).toContain('transaction.payment.failed');
      expect(names[0].enum).not.toContain('transaction.failed');
    }
  });
});

describe('card names', () => {
  it('every route that takes a payment method accepts creditcard and card; answers keep the spec names', async () => {
    const { key } = await freshSeller();
    await subscribe(key, ['transaction.created']);
    const product = await createProduct(key);

    // POST /api/transactions names the card creditcard; card works too.
    const sale = await api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'card',
      customer: buyer,
      card: card('4111111111111111'),
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body).toMatchObject({ paymentMethod: 'creditcard', status: 'captured' });
    await waitFor(() => delivered('transaction.created', (d) => d.id === sale.body.id).length === 1);
    expect(delivered('transaction.created', (d) => d.id === sale.body.id)[0].paymentMethod).toBe('card');

    const pix = await api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'pix',
      customer: buyer,
    });
    expect(pix.status).toBe(201);
    for (const name of ['card', 'creditcard']) {
      const listed = await api.get(`/api/transactions?paymentMethod=${name}`, { token: key });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body.data.map((t: { id: number }) => t.id)).toEqual([sale.body.id]);
      const charges = await api.get(`/api/v1/charges?paymentMethod=${name}`, { token: key });
      expect(charges.body.data.map((t: { id: number }) => t.id)).toEqual([sale.body.id]);
    }

    // Checkout sessions, their page and the sandbox helper name it card; creditcard works too.
    const session = await post(key, '/api/checkout/sessions', {
      product_id: product.id,
      payment_methods: ['creditcard', 'pix'],
      customer: prefill,
    });
    expect(session.payment_methods).toEqual(['card', 'pix']);
    const paid = await api.post(`/api/public/checkout/${session.id}/pay`, {
      paymentMethod: 'creditcard',
      customer: buyer,
      card: card('4111111111111111'),
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body).toMatchObject({ status: 'paid', method: 'card' });
    const helped = await post(key, '/api/checkout/sessions', { product_id: product.id, customer: prefill });
    const walked = await api.post(
      `/api/test-helpers/checkout/sessions/${helped.id}/pay`,
      { paymentMethod: 'creditcard' },
      { token: key },
    );
    expect(walked.status, JSON.stringify(walked.body)).toBe(200);
    expect(walked.body.data.status).toBe('complete');

    // Scheduled charges name it card; creditcard works too, and both at once repeat a method.
    const customer = await post(key, '/api/v1/customers', { ...buyer, personType: 'fisica' });
    const dueDate = addDays(saoPauloDate(runtime.clock.now()), 10);
    const charge = await post(key, '/api/v1/scheduled-charges', {
      customerId: customer.id,
      amount: 50,
      dueDate,
      methods: ['creditcard', 'pix'],
      type: 'one_time',
    });
    expect(charge.methods).toEqual(['card', 'pix']);
    const twice = await api.post(
      '/api/v1/scheduled-charges',
      { customerId: customer.id, amount: 50, dueDate, methods: ['card', 'creditcard'], type: 'one_time' },
      { token: key },
    );
    expect(twice.status).toBe(400);
    expect(twice.body.message).toContain('methods must not repeat a method');

    const wrong = await api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'cash',
      customer: buyer,
    });
    expect(wrong.status).toBe(400);
  });
});

describe('the sandbox checkout pay helper', () => {
  it('walks a session by pix or boleto without a buyer document or phone, filling a test buyer', async () => {
    const { key } = await freshSeller();
    const product = await createProduct(key);
    for (const method of ['pix', 'boleto']) {
      const bare = await post(key, '/api/checkout/sessions', { product_id: product.id });
      const named = await post(key, '/api/checkout/sessions', {
        product_id: product.id,
        customer: { 'customer.name': 'Joana Lima', 'customer.email': 'joana.lima@example.com' },
      });
      for (const session of [bare, named]) {
        const res = await api.post(
          `/api/test-helpers/checkout/sessions/${session.id}/pay`,
          { paymentMethod: method },
          { token: key },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.status).toBe('complete');
      }
      const tx = async (id: string) => {
        const read = (await api.get(`/api/checkout/sessions/${id}`, { token: key })).body.data;
        return (await api.get(`/api/transactions/${read.transaction_id}`, { token: key })).body;
      };
      const fromPrefill = await tx(named.id);
      expect(fromPrefill).toMatchObject({
        paymentMethod: method,
        customer: { name: 'Joana Lima', email: 'joana.lima@example.com', phone: '11999999999' },
      });
      expect(fromPrefill.customer.document).toMatch(/^\d{11}$/);
      expect((await tx(bare.id)).customer).toMatchObject({ name: 'Cliente Sandbox', phone: '11999999999' });
    }
    // One test buyer (one e-mail) keeps one CPF; another e-mail gets another.
    const joana = await api.get('/api/v1/customers?search=joana.lima@example.com', { token: key });
    expect(joana.body.totalCount).toBe(1);
    const all = (await api.get('/api/v1/customers?limit=100', { token: key })).body.data;
    const documents = all.map((c: { document: string }) => c.document);
    expect(new Set(documents).size).toBe(documents.length);
  });
});

describe('mark-paid on a scheduled charge', () => {
  it('leaves the transactions array empty; the cancelled pix and boleto stay under their cycle', async () => {
    const { key } = await freshSeller();
    const customer = await post(key, '/api/v1/customers', { ...buyer, personType: 'fisica' });
    const saoPauloToday = saoPauloDate(runtime.clock.now());
    const charge = await post(key, '/api/v1/scheduled-charges', {
      customerId: customer.id,
      amount: 80,
      dueDate: saoPauloToday,
      methods: ['pix', 'boleto'],
      type: 'one_time',
    });
    const path = `/api/v1/scheduled-charges/${charge.id}`;
    const before = (await api.get(path, { token: key })).body;
    expect(before.transactions).toEqual([]);
    expect(before.cycles[0].issued.map((t: { status: string }) => t.status)).toEqual([
      'pendingPix',
      'pendingBoleto',
    ]);
    const paid = await api.post(`${path}/mark-paid`, { paymentDate: saoPauloToday }, { token: key });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', transactions: [] });
    expect(paid.body.cycles[0]).toMatchObject({ status: 'paid', paidBy: 'manual' });
    const after = (await api.get(path, { token: key })).body;
    expect(after.transactions).toEqual([]);
    expect(after.cycles[0].issued.map((t: { status: string }) => t.status)).toEqual(['cancel', 'cancel']);
  });
});

let nextDocument = 300_000_000 + Math.floor(Math.random() * 100_000_000);
const newCpf = () => {
  const base = String(nextDocument++);
  return `${base}${cpfCheckDigits(base)}`;
};

describe('transaction search', () => {
  it('finds the buyer by the start of any word of the name or of the e-mail, ignoring case and accents, counting every match', async () => {
    const { key } = await freshSeller();
    const product = await createProduct(key);
    const sell = async (name: string, email: string) => {
      const res = await api.post('/api/transactions', {
        productId: product.uuid,
        paymentMethod: 'pix',
        customer: { name, email, document: newCpf(), phone: '11987654321' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: number };
    };
    const clients: number[] = [];
    for (let n = 1; n <= 30; n++)
      clients.push((await sell(`Cliente Número ${n}`, `cliente.${n}@exemplo.com`)).id);
    const maria = await sell('Maria Conceição Souza', 'maria.souza@example.com');
    const joao = await sell('João da Silva', 'jsilva@example.com');
    const ids = async (search: string, extra = '') => {
      const res = await api.get(`/api/transactions?search=${encodeURIComponent(search)}${extra}`, {
        token: key,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((t: { id: number }) => t.id);
    };
    for (const term of [
      'souza',
      'SOUZA',
      'conceicao',
      'CONCEIÇÃO',
      'Conc',
      'maria.sou',
      'MARIA.SOUZA@EXAMPLE.COM',
    ])
      expect(await ids(term), term).toEqual([maria.id]);
    for (const term of ['silva', 'joao', 'João da', 'da sil', 'jsil'])
      expect(await ids(term), term).toEqual([joao.id]);
    expect(await ids('ouza')).toEqual([]);
    expect(await ids('example.com')).toEqual([]);

    // No cap on the customers matched: all 30, newest first, paged with the right total.
    const page = await api.get('/api/transactions?search=numero&limit=12&page=3', { token: key });
    expect(page.body).toMatchObject({ count: 6, page: 3, totalPages: 3 });
    const everyMatch = await ids('cliente', '&limit=100');
    expect(everyMatch).toEqual([...clients].reverse());
    expect(await ids('cliente.1', '&limit=100')).toEqual(
      clients.filter((_, i) => String(i + 1).startsWith('1')).reverse(),
    );

    // With the other filters.
    await api.post(`/api/test-helpers/transactions/${clients[4]}/pay`, {}, { token: key });
    await api.post(`/api/test-helpers/transactions/${maria.id}/pay`, {}, { token: key });
    expect(await ids('cliente', '&status=payedPix')).toEqual([clients[4]]);
    expect(await ids('cliente', '&status=pendingPix&limit=100')).toHaveLength(29);
    expect(await ids('souza', '&paymentMethod=boleto')).toEqual([]);
    expect(await ids('souza', `&productId=${product.id}&status=payedPix`)).toEqual([maria.id]);

    // Another seller's buyers are never found.
    const other = await freshSeller();
    expect((await api.get('/api/transactions?search=souza', { token: other.key })).body.data).toEqual([]);
  });

  it('leaves GET /api/v1/customers with search newest first', async () => {
    const { key } = await freshSeller();
    const register = (name: string) =>
      post(key, '/api/v1/customers', { ...buyer, name, document: newCpf(), personType: 'fisica' });
    const alfa = await register('Ana Alfa');
    const zeta = await register('Ana Zeta');
    const found = await api.get('/api/v1/customers?search=ana', { token: key });
    expect(found.body.data.map((c: { uuid: string }) => c.uuid)).toEqual([zeta.uuid, alfa.uuid]);
    expect(found.body.totalCount).toBe(2);
  });
});

describe('PATCH /api/v1/customers/{uuid} with a document', () => {
  const customerBody = (document: string, extra: Record<string, unknown> = {}) => ({
    name: 'Ana Souza',
    email: 'ana.souza@example.com',
    document,
    phone: '11987654321',
    personType: 'fisica',
    ...extra,
  });

  it('moves the profile to the right document, keeping its uuid and history; later sales follow the documents', async () => {
    const { key } = await freshSeller();
    const product = await createProduct(key);
    const typo = newCpf();
    const right = newCpf();
    const created = await post(key, '/api/v1/customers', customerBody(typo));
    // History: a sale and a scheduled charge of the customer under the mistyped document.
    const sale = await api.post('/api/transactions', {
      productId: product.uuid,
      paymentMethod: 'pix',
      customer: { name: 'Ana Souza', email: 'ana.souza@example.com', document: typo, phone: '11987654321' },
    });
    expect(sale.body.customer.id).toBe(created.id);
    const charge = await post(key, '/api/v1/scheduled-charges', {
      customerId: created.id,
      amount: 50,
      dueDate: addDays(saoPauloDate(runtime.clock.now()), 20),
      methods: ['pix'],
      type: 'one_time',
    });

    const fixed = await api.patch(
      `/api/v1/customers/${created.uuid}`,
      {
        document: `${right.slice(0, 3)}.${right.slice(3, 6)}.${right.slice(6, 9)}-${right.slice(9)}`,
        personType: 'fisica',
      },
      { token: key },
    );
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body).toMatchObject({
      id: created.id,
      uuid: created.uuid,
      document: right,
      personType: 'fisica',
    });

    // The same profile, found by its new document; the history keeps pointing to it.
    const byNew = await api.get(`/api/v1/customers?search=${right}`, { token: key });
    expect(byNew.body.data.map((c: { uuid: string }) => c.uuid)).toEqual([created.uuid]);
    expect((await api.get(`/api/v1/customers?search=${typo}`, { token: key })).body.totalCount).toBe(0);
    const history = await api.get(`/api/transactions?customerId=${created.id}`, { token: key });
    expect(history.body.data.map((t: { id: number }) => t.id)).toEqual([sale.body.id]);
    const read = await api.get(`/api/v1/scheduled-charges/${charge.id}`, { token: key });
    expect(read.body.customerId).toBe(created.id);

    // A sale under the right document is this customer's; the mistyped one is somebody else now.
    const buyerOf = (document: string, name: string) => ({
      productId: product.uuid,
      paymentMethod: 'pix',
      customer: {
        name,
        email: `${name.split(' ')[0].toLowerCase()}@example.com`,
        document,
        phone: '11987654321',
      },
    });
    const later = await api.post('/api/transactions', buyerOf(right, 'Ana Souza'));
    expect(later.body.customer.id).toBe(created.id);
    const stranger = await api.post('/api/transactions', buyerOf(typo, 'Bruno Dono'));
    expect(stranger.status, JSON.stringify(stranger.body)).toBe(201);
    expect(stranger.body.customer.id).not.toBe(created.id);
    const listed = await api.get('/api/v1/customers', { token: key });
    expect(listed.body.totalCount).toBe(2);
    const owner = (await api.get(`/api/v1/customers?search=${typo}`, { token: key })).body.data[0];
    expect(owner).toMatchObject({ id: stranger.body.customer.id, document: typo, name: 'Bruno Dono' });
    expect(owner.uuid).not.toBe(created.uuid);

    // Registering the right document again answers the moved profile.
    const again = await post(key, '/api/v1/customers', customerBody(right, { name: 'Ana S. Lima' }));
    expect(again).toMatchObject({ id: created.id, uuid: created.uuid, name: 'Ana S. Lima' });
  });

  it('joins the global customer another seller registered, whose own view is unaffected', async () => {
    const a = await freshSeller();
    const b = await freshSeller();
    const right = newCpf();
    const theirs = await post(
      b.key,
      '/api/v1/customers',
      customerBody(right, { name: 'Ana B', email: 'b@example.com' }),
    );
    const mine = await post(a.key, '/api/v1/customers', customerBody(newCpf()));
    const fixed = await api.patch(`/api/v1/customers/${mine.uuid}`, { document: right }, { token: a.key });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body).toMatchObject({ uuid: mine.uuid, document: right, name: 'Ana Souza' });
    const bView = (await api.get(`/api/v1/customers?search=${right}`, { token: b.key })).body.data;
    expect(bView).toEqual([
      expect.objectContaining({ uuid: theirs.uuid, name: 'Ana B', email: 'b@example.com' }),
    ]);
    const aView = (await api.get(`/api/v1/customers?search=${right}`, { token: a.key })).body.data;
    expect(aView.map((c: { uuid: string }) => c.uuid)).toEqual([mine.uuid]);
  });

  it('answers 409 for a document the seller already has, 400 for a bad one, and writes nothing', async () => {
    const { key } = await freshSeller();
    const first = await post(key, '/api/v1/customers', customerBody(newCpf()));
    const second = await post(key, '/api/v1/customers', customerBody(newCpf(), { email: 'x@example.com' }));
    const path = `/api/v1/customers/${first.uuid}`;
    const taken = await api.patch(path, { document: second.document, name: 'Trocado' }, { token: key });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('This seller already has a customer with this document');
    const cases: [Record<string, unknown>, string][] = [
      [{ document: '123' }, 'document is not a valid CPF or CNPJ'],
      [{ document: '11222333000181', personType: 'fisica' }, 'personType fisica requires a CPF (11 digits)'],
      [{ personType: 'juridica' }, 'personType juridica requires a CNPJ (14 characters)'],
    ];
    for (const [body, message] of cases) {
      const res = await api.patch(path, body, { token: key });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toEqual([message]);
    }
    const cnpj = await api.patch(path, { document: '11.222.333/0001-81' }, { token: key });
    expect(cnpj.body).toMatchObject({
      document: '11222333000181',
      personType: 'juridica',
      name: 'Ana Souza',
    });
    const unchanged = (await api.get(`/api/v1/customers?search=${second.document}`, { token: key })).body
      .data;
    expect(unchanged).toEqual([expect.objectContaining({ uuid: second.uuid })]);
    const other = await freshSeller();
    expect((await api.patch(path, { document: newCpf() }, { token: other.key })).status).toBe(404);
  });
});
