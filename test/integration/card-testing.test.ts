import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { leadingZeroBits } from '#shared/domain/card-testing/proof-of-work';
import { buyer, card, decliningCard } from '../support/checkout-fixtures';
import { clientFrom, freshLoopback } from '../support/client-from';
import { sellerFixtures } from '../support/fixtures';
import { Receiver, waitFor } from '../support/receiver';
import { type Call, type client, useTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
const fixtures = sellerFixtures(() => ({ runtime, api }), 231_000);

useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

const APPROVED = '4111111111111111';
const INSUFFICIENT = '4000000000009995';
const INCORRECT_CVC = '4000000000000127';
const EXPIRED = '4000000000000069';
const PROCESSING_ERROR = '4000000000000259';
const GENERIC = 'Cartão recusado. Tente outro cartão ou outra forma de pagamento.';

type Client = ReturnType<typeof clientFrom>;
const fresh = (): Client => clientFrom(runtime.baseUrl, freshLoopback());

let nextCard = 0;
const freshCard = () => decliningCard(nextCard++);

const seller = (environment: 'test' = 'test') => fixtures.seller({ environment });
type Seller = Awaited<ReturnType<typeof seller>>;

async function product(s: Seller) {
  const res = await api.post(
    '/api/products',
    { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100, installments: 3 },
    { token: s.key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string };
}

async function session(s: Seller, p: { id: number }) {
  const res = await api.post('/api/checkout/sessions', { product_id: p.id }, { token: s.key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/** The hosted page's card payment (a session id or a product uuid), from `c`. */
const payPage = (c: Client, ref: string, number: string, proof?: string) =>
  c.post(
    `/api/public/checkout/${ref}/pay`,
    { paymentMethod: 'card', customer: buyer, card: card(number) },
    proof ? { headers: { 'x-proof-of-work': proof } } : {},
  );

/** POST /api/transactions by card, anonymous unless a token is given. */
const payApi = (c: Client, uuid: string, number: string, token?: string) =>
  c.post(
    '/api/transactions',
    { productId: uuid, paymentMethod: 'creditcard', customer: buyer, card: card(number) },
    { token },
  );

/** A solution of a challenge, as the page's script finds it. */
function solve(challenge: string): string {
  const bits = Number(challenge.split('.')[1]);
  for (let n = 0; ; n++) {
    if (leadingZeroBits(createHash('sha256').update(`${challenge}${n}`).digest()) >= bits)
      return `${challenge}:${n}`;
  }
}

/** Pays as the page does: a 428 is solved and the payment sent again with the solution. */
async function payPageSolving(c: Client, ref: string, number: string): Promise<Call> {
  const first = await payPage(c, ref, number);
  if (first.status !== 428) return first;
  return payPage(c, ref, number, solve(first.headers.get('x-proof-of-work-challenge') as string));
}

const advance = (seconds: number) => api.post('/api/test-helpers/clock/advance', { seconds });

/** Moves the test clock a second into the next fixed window of `seconds` (counted from the epoch). */
async function startOfWindow(seconds: number) {
  const now = Date.parse((await api.get('/api/test-helpers/clock')).body.now);
  await advance((seconds * 1000 - (now % (seconds * 1000))) / 1000 + 1);
}
const HOUR = 3600;
const DAY = 24 * HOUR;

/** Held for the cool-down: the test clock runs at wall speed, so a few seconds may have gone by. */
function expectBlocked(res: Call, coolDown: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body).toMatchObject({ code: 'card_attempts_blocked' });
  expect(res.body.message).toMatch(/^Muitas tentativas de pagamento com cartão/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeLessThanOrEqual(coolDown);
  expect(retryAfter).toBeGreaterThan(coolDown - 10);
}

/** Just before the cool-down ends the scope is still held; at its end it takes cards again. */
async function throughCoolDown(coolDown: number, stillHeld: () => Promise<Call>) {
  await advance(coolDown - 10);
  expect((await stillHeld()).status).toBe(429);
  await advance(10);
}

function expectDeclined(res: Call) {
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.status).toMatch(/^(declined|denied)$/);
}

const transactionsOf = async (s: Seller) =>
  (await api.get('/api/transactions?limit=100', { token: s.key })).body.data as Record<string, any>[];

describe('what a buyer is told of a declined card', () => {
  it('answers "recusado" on every public card form, while the seller and its webhooks read the reason', async () => {
    const s = await seller();
    const p = await product(s);
    const receiver = await new Receiver().start();
    try {
      await api.post(
        '/api/webhook-endpoints',
        { url: receiver.url, events: ['transaction.payment.failed'] },
        { token: s.key },
      );
      const link = await payPage(fresh(), p.uuid, INSUFFICIENT);
      expect(link.body).toMatchObject({
        status: 'declined',
        failure: { code: 'card_declined', message: GENERIC },
      });
      const cs = await payPage(fresh(), await session(s, p), INCORRECT_CVC);
      expect(cs.body).toMatchObject({
        status: 'declined',
        failure: { code: 'card_declined', message: GENERIC },
      });
      const anonymous = await payApi(fresh(), p.uuid, EXPIRED);
      expect(anonymous.body).toMatchObject({
        status: 'denied',
        failureCode: 'card_declined',
        failureReason: 'The card was declined.',
      });
      expect(JSON.stringify([link.body, cs.body, anonymous.body])).not.toMatch(
        /insufficient|incorrect_cvc|expired|insuficiente|CVV|vencido/i,
      );
      // The seller's own key sells as before, and reads every reason.
      const own = await payApi(fresh(), p.uuid, INCORRECT_CVC, s.key);
      expect(own.body).toMatchObject({ status: 'denied', failureCode: 'incorrect_cvc' });
      const read = await api.get(`/api/transactions/${anonymous.body.id}`, { token: s.key });
      expect(read.body).toMatchObject({
        failureCode: 'expired_card',
        failureReason: 'The card has expired.',
      });
      expect((await transactionsOf(s)).map((t) => t.failureCode).sort()).toEqual([
        'expired_card',
        'incorrect_cvc',
        'incorrect_cvc',
        'insufficient_funds',
      ]);
      await waitFor(() => receiver.received.length === 4);
      expect(receiver.received.map((r) => r.json.data.failureCode).sort()).toEqual([
        'expired_card',
        'incorrect_cvc',
        'incorrect_cvc',
        'insufficient_funds',
      ]);
    } finally {
      await receiver.stop();
    }
  });

  it('keeps a technical failure as it is: nothing was charged and trying again is right', async () => {
    const s = await seller();
    const p = await product(s);
    const res = await payPage(fresh(), p.uuid, PROCESSING_ERROR);
    expect(res.body).toMatchObject({ status: 'failed', failure: { code: 'processing_error' } });
    expect((await payApi(fresh(), p.uuid, PROCESSING_ERROR)).body.failureCode).toBe('processing_error');
  });

  it('refuses an expiry already past with a 400 naming it, before any charge', async () => {
    const s = await seller();
    const p = await product(s);
    const [y, m] = saoPauloDate(runtime.clock.now()).split('-').map(Number);
    const past = m === 1 ? { expiryMonth: 12, expiryYear: y - 1 } : { expiryMonth: m - 1, expiryYear: y };
    const res = await fresh().post(`/api/public/checkout/${p.uuid}/pay`, {
      paymentMethod: 'card',
      customer: buyer,
      card: { ...card(APPROVED), ...past },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(['card.expiryYear must not be in the past (the card has expired)']);
    const thisMonth = await fresh().post(`/api/public/checkout/${p.uuid}/pay`, {
      paymentMethod: 'card',
      customer: buyer,
      card: { ...card(APPROVED), expiryMonth: m, expiryYear: y },
    });
    expect(thisMonth.body).toMatchObject({ status: 'paid' });
    expect(await transactionsOf(s)).toHaveLength(1);
  });

  it('accepts the seller’s key only as the product’s seller: another seller’s key is a buyer, a wrong key 401', async () => {
    const s = await seller();
    const other = await seller();
    const p = await product(s);
    const theirs = await payApi(fresh(), p.uuid, INSUFFICIENT, other.key);
    expect(theirs.body).toMatchObject({ status: 'denied', failureCode: 'card_declined' });
    const wrong = await payApi(fresh(), p.uuid, APPROVED, 'sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(wrong.status).toBe(401);
    expect(await transactionsOf(s)).toHaveLength(1);
  });
});

describe('decline limits with a cool-down', () => {
  it('stops a checkout session after 5 declines for an hour, and no other session', async () => {
    await startOfWindow(HOUR);
    const s = await seller();
    const p = await product(s);
    const cs = await session(s, p);
    for (let i = 0; i < 5; i++) expectDeclined(await payPage(fresh(), cs, freshCard()));
    // Even a good card, from a new client: the session is held.
    expectBlocked(await payPage(fresh(), cs, APPROVED), HOUR);
    expect(await transactionsOf(s)).toHaveLength(5);
    expect((await payPage(fresh(), await session(s, p), APPROVED)).body.status).toBe('paid');
    await throughCoolDown(HOUR, () => payPage(fresh(), cs, APPROVED));
    expect((await payPage(fresh(), cs, APPROVED)).body.status).toBe('paid');
  });

  it('stops a product’s payment link after 20 declines (the page and the API alike) for 30 minutes, cards only', async () => {
    await startOfWindow(HOUR);
    const s = await seller();
    const p = await product(s);
    for (let i = 0; i < 20; i++) {
      const c = fresh();
      expectDeclined(i % 2 ? await payPage(c, p.uuid, freshCard()) : await payApi(c, p.uuid, freshCard()));
    }
    expectBlocked(await payPage(fresh(), p.uuid, APPROVED), 1800);
    expectBlocked(await payApi(fresh(), p.uuid, APPROVED), 1800);
    const pix = await fresh().post(`/api/public/checkout/${p.uuid}/pay`, {
      paymentMethod: 'pix',
      customer: buyer,
    });
    expect(pix.body).toMatchObject({ status: 'pending', method: 'pix' });
    // The seller's own calls are never held.
    expect((await payApi(fresh(), p.uuid, APPROVED, s.key)).body.status).toBe('captured');
    await throughCoolDown(1800, () => payPage(fresh(), p.uuid, APPROVED));
    expect((await payPage(fresh(), p.uuid, APPROVED)).body.status).toBe('paid');
  });

  it('stops one card at a seller after 4 declines for a day, by a keyed fingerprint that stores nothing of the number', async () => {
    await startOfWindow(DAY);
    const s = await seller();
    const [p1, p2] = [await product(s), await product(s)];
    const tested = freshCard();
    expectDeclined(await payPage(fresh(), p1.uuid, tested));
    expectDeclined(await payPage(fresh(), p2.uuid, tested));
    expectDeclined(await payPage(fresh(), await session(s, p1), tested));
    expectDeclined(await payApi(fresh(), p2.uuid, tested));
    expectBlocked(await payPage(fresh(), await session(s, p2), tested), DAY);
    // Another card at the seller, and the same card at another seller, still go to the provider.
    expectDeclined(await payPage(fresh(), p1.uuid, freshCard()));
    const other = await seller();
    expectDeclined(await payPage(fresh(), (await product(other)).uuid, tested));

    const items = await runtime.deps.table.client.send(
      new ScanCommand({ TableName: runtime.deps.table.name }),
    );
    const stored = JSON.stringify(items.Items);
    const plain = createHash('sha256').update(tested);
    const plainHex = plain.copy().digest('hex');
    expect(stored).toContain('decline:card:');
    for (const leak of [tested, plainHex, plain.digest('base64url').slice(0, 32)])
      expect(stored).not.toContain(leak);

    await throughCoolDown(DAY, () => payPage(fresh(), p1.uuid, tested));
    expectDeclined(await payPage(fresh(), p1.uuid, tested));
  });

  it('stops a client after 10 declines in an hour, across sellers, for an hour', async () => {
    await startOfWindow(HOUR);
    const c = fresh();
    for (let i = 0; i < 10; i++) {
      // A client starts at most 5 card attempts a minute.
      if (i === 5) await advance(61);
      const s = await seller();
      expectDeclined(await payPageSolving(c, (await product(s)).uuid, freshCard()));
    }
    const s = await seller();
    const p = await product(s);
    expectBlocked(await payPageSolving(c, p.uuid, APPROVED), HOUR);
    expect(await transactionsOf(s)).toHaveLength(0);
    expect((await payPage(fresh(), p.uuid, APPROVED)).body.status).toBe('paid');
    await throughCoolDown(HOUR, () => payPage(c, p.uuid, APPROVED));
    expect((await payPage(c, p.uuid, APPROVED)).body.status).toBe('paid');
  });

  it('stops every public card form of a seller after 100 declines in an hour, for 30 minutes', async () => {
    await startOfWindow(HOUR);
    const s = await seller();
    const products: { id: number; uuid: string }[] = [];
    for (let i = 0; i < 6; i++) products.push(await product(s));
    // Spread so that no other scope fills: 3 declines per client and per card, 17 per link.
    for (let batch = 0; batch < 10; batch++) {
      const clients = [fresh(), fresh(), fresh(), fresh()];
      const cards = [freshCard(), freshCard(), freshCard(), freshCard()];
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const n = batch * 10 + i;
          return payPage(clients[i % 4], products[n % 6].uuid, cards[i % 4]);
        }),
      );
      for (const res of answers) expectDeclined(res);
    }
    const p = await product(s);
    expectBlocked(await payPage(fresh(), await session(s, p), APPROVED), 1800);
    expectBlocked(await payApi(fresh(), p.uuid, APPROVED), 1800);
    const other = await seller();
    expect((await payPage(fresh(), (await product(other)).uuid, APPROVED)).body.status).toBe('paid');
    await throughCoolDown(1800, () => payPage(fresh(), p.uuid, APPROVED));
    expect((await payPage(fresh(), p.uuid, APPROVED)).body.status).toBe('paid');
  });
});

describe('a burst of cards sent at once', () => {
  it('lets 5 of one client’s card attempts a minute reach the provider, whatever they answer', async () => {
    await startOfWindow(HOUR);
    const s = await seller();
    const p = await product(s);
    const c = fresh();
    const answers = await Promise.all(Array.from({ length: 8 }, () => payPage(c, p.uuid, freshCard())));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body.code).toBe('card_attempts_blocked');
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    expect(await transactionsOf(s)).toHaveLength(5);
    // Another client is not held; the next minute this one may try again, with a proof (5 declines).
    expectDeclined(await payPage(fresh(), p.uuid, freshCard()));
    await advance(61);
    expect((await payPage(c, p.uuid, APPROVED)).status).toBe(428);
  });
});

describe('proof of work after repeated declines from one client', () => {
  it('asks for a solved, signed, fresh and unused challenge before the next card, harder after each decline', async () => {
    await startOfWindow(HOUR);
    const s = await seller();
    const p = await product(s);
    const c = fresh();
    for (let i = 0; i < 3; i++) expectDeclined(await payPage(c, p.uuid, freshCard()));

    const asked = await payPage(c, p.uuid, APPROVED);
    expect(asked.status).toBe(428);
    expect(asked.body).toMatchObject({ statusCode: 428, code: 'proof_of_work_required' });
    const challenge = asked.headers.get('x-proof-of-work-challenge') as string;
    expect(challenge).toMatch(/^pow1\.16\.\d{13}\.pow_\w+\.[\w-]{43}$/);
    expect(await transactionsOf(s)).toHaveLength(3);

    const solution = solve(challenge);
    const nonce = Number(solution.split(':')[1]);
    for (const wrong of [
      `${challenge}:${nonce + 1}`,
      `${challenge.replace('pow1.16', 'pow1.10')}:${nonce}`,
      challenge,
    ])
      expect((await payPage(c, p.uuid, APPROVED, wrong)).status).toBe(428);
    // A challenge is bound to the client it was issued to.
    const other = fresh();
    for (let i = 0; i < 3; i++) expectDeclined(await payPage(other, p.uuid, freshCard()));
    const theirs = (await payPage(other, p.uuid, APPROVED)).headers.get(
      'x-proof-of-work-challenge',
    ) as string;
    expect((await payPage(c, p.uuid, APPROVED, solve(theirs))).status).toBe(428);
    expect(await transactionsOf(s)).toHaveLength(6);

    expect((await payPage(c, p.uuid, APPROVED, solution)).body.status).toBe('paid');
    // Used once: never again.
    const reused = await payPage(c, p.uuid, APPROVED, solution);
    expect(reused.status).toBe(428);
    // Ten minutes later a solved challenge has expired.
    const late = solve(reused.headers.get('x-proof-of-work-challenge') as string);
    await advance(601);
    expect((await payPage(c, p.uuid, APPROVED, late)).status).toBe(428);

    // Another decline: one more zero bit, and an unused 16-bit solution is too easy now.
    const challengeOf = async () =>
      (await payPage(c, p.uuid, APPROVED)).headers.get('x-proof-of-work-challenge') as string;
    const [forDecline, spare] = [solve(await challengeOf()), solve(await challengeOf())];
    expectDeclined(await payPage(c, p.uuid, freshCard(), forDecline));
    const tooEasy = await payPage(c, p.uuid, APPROVED, spare);
    expect(tooEasy.status).toBe(428);
    expect(tooEasy.headers.get('x-proof-of-work-challenge')).toMatch(/^pow1\.17\./);
    expect((await payPageSolving(c, p.uuid, APPROVED)).body.status).toBe('paid');

    // Pix needs no proof, and the seller's own key is never asked for one.
    const pix = await c.post(`/api/public/checkout/${p.uuid}/pay`, { paymentMethod: 'pix', customer: buyer });
    expect(pix.status).toBe(201);
    expect((await payApi(c, p.uuid, INSUFFICIENT, s.key)).body).toMatchObject({
      failureCode: 'insufficient_funds',
    });
  });

  it('never asks the product’s seller, whatever its own declines', async () => {
    await startOfWindow(HOUR);
    const s = await seller();
    const p = await product(s);
    const c = fresh();
    for (let i = 0; i < 12; i++) {
      const res = await payApi(c, p.uuid, INSUFFICIENT, s.key);
      expect(res.body).toMatchObject({ status: 'denied', failureCode: 'insufficient_funds' });
    }
    // Nothing was counted against the client or the seller's public forms.
    expect((await payPage(c, p.uuid, APPROVED)).body.status).toBe('paid');
  });
});

describe('the pay link of a scheduled charge', () => {
  async function payLink(s: Seller) {
    const customer = (
      await api.post('/api/v1/customers', { ...buyer, personType: 'fisica' }, { token: s.key })
    ).body;
    const created = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId: customer.id,
        amount: 49.9,
        dueDate: addDays(saoPauloDate(runtime.clock.now()), 1),
        methods: ['card'],
        type: 'one_time',
      },
      { token: s.key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const detail = (await api.get(`/api/v1/scheduled-charges/${created.body.id}`, { token: s.key })).body;
    return {
      id: created.body.id as string,
      token: (detail.cycles[0].payUrl as string).split('/').pop() as string,
    };
  }
  const payCharge = (c: Client, token: string, number: string, proof?: string) =>
    c.post(
      `/api/public/cobranca/${token}/card`,
      { card: card(number) },
      proof ? { headers: { 'x-proof-of-work': proof } } : {},
    );

  it('answers "recusado", stops the charge after 5 declines for an hour, and asks a declining client for a proof', async () => {
    await startOfWindow(HOUR);
    const s = await seller();
    const link = await payLink(s);
    const declined = await payCharge(fresh(), link.token, INSUFFICIENT);
    expect(declined.body).toMatchObject({
      status: 'declined',
      failure: { code: 'card_declined', message: GENERIC },
    });
    const attempts = await api.get(`/api/v1/scheduled-charges/${link.id}/attempts`, { token: s.key });
    expect(attempts.body.data[0]).toMatchObject({ status: 'declined', failureCode: 'insufficient_funds' });

    const c = fresh();
    for (let i = 0; i < 3; i++) expectDeclined(await payCharge(c, link.token, freshCard()));
    const asked = await payCharge(c, link.token, APPROVED);
    expect(asked.status).toBe(428);
    expect(asked.body.code).toBe('proof_of_work_required');
    expectDeclined(
      await payCharge(
        c,
        link.token,
        freshCard(),
        solve(asked.headers.get('x-proof-of-work-challenge') as string),
      ),
    );
    // 5 declines on the charge: held for an hour, whoever tries.
    expectBlocked(await payCharge(fresh(), link.token, APPROVED), HOUR);
    await throughCoolDown(HOUR, () => payCharge(fresh(), link.token, APPROVED));
    expect((await payCharge(fresh(), link.token, APPROVED)).body.status).toBe('paid');
  });
});

describe('a new card in the customer portal', () => {
  /** A seller's customer subscribed with a saved card, and a portal session for her. */
  async function portal() {
    const s = await seller();
    const p = await product(s);
    const price = await api.post(
      `/api/products/${p.id}/prices`,
      { name: 'Mensal', unitAmount: 29.9, billingInterval: 'month' },
      { token: s.key },
    );
    const customer = (
      await api.post('/api/v1/customers', { ...buyer, personType: 'fisica' }, { token: s.key })
    ).body;
    const sale = await api.post(
      '/api/transactions',
      {
        productId: p.uuid,
        paymentMethod: 'creditcard',
        customer: buyer,
        card: card(APPROVED),
        saveCard: true,
      },
      { token: s.key },
    );
    expect(sale.body.status).toBe('captured');
    const [saved] = (await api.get(`/api/v1/customers/${customer.uuid}/payment-methods`, { token: s.key }))
      .body.data;
    const sub = await api.post(
      '/api/subscriptions',
      { customerId: customer.id, priceId: price.body.id, paymentMethodId: saved.id },
      { token: s.key },
    );
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const session = await api.post('/api/portal/sessions', { customerId: customer.id }, { token: s.key });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const path = `/api/portal/subscriptions/${sub.body.id}/add-card-and-update?token=${session.body.token}`;
    return (c: Client, number: string, proof?: string) =>
      c.post(
        path,
        { cardNumber: number, holderName: 'MARIA SOUZA', expiryMonth: 12, expiryYear: 2034, cvv: '123' },
        proof ? { headers: { 'x-proof-of-work': proof } } : {},
      );
  }

  it('answers "recusado", asks a declining client for a proof, and stops the session after 5 declines', async () => {
    await startOfWindow(HOUR);
    const addCard = await portal();
    const declined = await addCard(fresh(), INSUFFICIENT);
    expect(declined.status).toBe(400);
    expect(declined.body).toMatchObject({ code: 'card_declined', message: GENERIC });

    const c = fresh();
    for (let i = 0; i < 3; i++) expect((await addCard(c, freshCard())).body.code).toBe('card_declined');
    const asked = await addCard(c, APPROVED);
    expect(asked.status).toBe(428);
    const proof = solve(asked.headers.get('x-proof-of-work-challenge') as string);
    expect((await addCard(c, freshCard(), proof)).body.code).toBe('card_declined');
    expectBlocked(await addCard(fresh(), APPROVED), HOUR);
  });
});
