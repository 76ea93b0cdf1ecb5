import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardFingerprint, clientKeyOf, EXPIRED_CARD_INPUT } from '#shared/domain/card-testing/guard';
import { proofBitsFor } from '#shared/domain/card-testing/limits';
import { issueChallenge, leadingZeroBits, solvedChallenge } from '#shared/domain/card-testing/proof-of-work';
import {
  challengeBits,
  fieldErrors,
  postWithProof,
  solveProofOfWork,
  tooManyMessage,
} from '../../functions/pages/assets/checkout.js';

const KEY = new Uint8Array(32).fill(9);
const NOW = new Date('2026-03-10T12:00:00.000Z');
const challengeOf = (bits: number, client = '203.0.113.7', expiresAt = NOW.getTime() + 600_000) =>
  issueChallenge(KEY, { bits, expiresAt, id: 'pow_abcdefghijklmnopqrstuv' }, client);

describe('the proof of work', () => {
  it('counts leading zero bits across bytes', () => {
    expect(leadingZeroBits(Uint8Array.from([0x80]))).toBe(0);
    expect(leadingZeroBits(Uint8Array.from([0x01, 0xff]))).toBe(7);
    expect(leadingZeroBits(Uint8Array.from([0x00, 0x00, 0x10]))).toBe(19);
    expect(leadingZeroBits(Uint8Array.from([0, 0]))).toBe(16);
  });

  it('asks 16 bits from the third decline, one more per decline, 20 at most', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 9, 50].map(proofBitsFor)).toEqual([0, 0, 0, 16, 17, 18, 19, 20, 20, 20]);
  });

  it('accepts what the page script finds, for the client it was issued to, until it expires', async () => {
    const challenge = challengeOf(10);
    expect(challengeBits(challenge)).toBe(10);
    const nonce = await solveProofOfWork(challenge, 10);
    const digest = createHash('sha256').update(`${challenge}${nonce}`).digest();
    expect(leadingZeroBits(digest)).toBeGreaterThanOrEqual(10);
    const header = `${challenge}:${nonce}`;
    expect(solvedChallenge(KEY, header, '203.0.113.7', NOW)).toEqual({
      bits: 10,
      expiresAt: NOW.getTime() + 600_000,
      id: 'pow_abcdefghijklmnopqrstuv',
    });
    expect(solvedChallenge(KEY, header, '203.0.113.8', NOW)).toBeNull();
    expect(solvedChallenge(new Uint8Array(32).fill(1), header, '203.0.113.7', NOW)).toBeNull();
    expect(solvedChallenge(KEY, header, '203.0.113.7', new Date(NOW.getTime() + 600_000))).toBeNull();
  });

  it('refuses a wrong nonce, a changed difficulty, and anything that is not a solution', async () => {
    const challenge = challengeOf(12);
    const nonce = Number(await solveProofOfWork(challenge, 12));
    let wrong = nonce + 1;
    while (leadingZeroBits(createHash('sha256').update(`${challenge}${wrong}`).digest()) >= 12) wrong++;
    const refused = [
      `${challenge}:${wrong}`,
      `${challenge.replace('pow1.12.', 'pow1.2.')}:${nonce}`,
      challenge,
      `${challenge}:`,
      `${challenge}:-1`,
      `${challenge}:1e3`,
      `:${nonce}`,
      '',
      undefined,
      `${challenge}:${'1'.repeat(200)}`,
    ];
    for (const header of refused) expect(solvedChallenge(KEY, header, '203.0.113.7', NOW)).toBeNull();
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        expect(solvedChallenge(KEY, text, '203.0.113.7', NOW)).toBeNull();
      }),
    );
  });
});

describe('the page script’s side', () => {
  const answer = (status: number, headers: Record<string, string> = {}) =>
    new Response('{}', { status, headers: { 'content-type': 'application/json', ...headers } });

  it('solves a 428 and sends the same payment again with the solution, telling the page it is solving', async () => {
    const challenge = challengeOf(8);
    const sent: RequestInit[] = [];
    const answers = [answer(428, { 'x-proof-of-work-challenge': challenge }), answer(201)];
    let solving = 0;
    const response = await postWithProof('/api/public/checkout/x/pay', '{"a":1}', {
      onSolving: () => solving++,
      fetchImpl: async (_url: string | URL | Request, init?: RequestInit) => {
        sent.push(init ?? {});
        return answers.shift() as Response;
      },
    });
    expect(response.status).toBe(201);
    expect(solving).toBe(1);
    expect(sent.map((s) => s.body)).toEqual(['{"a":1}', '{"a":1}']);
    const headers = sent.map((s) => s.headers as Record<string, string>);
    expect(headers[0]['x-proof-of-work']).toBeUndefined();
    const proof = headers[1]['x-proof-of-work'];
    expect(solvedChallenge(KEY, proof, '203.0.113.7', NOW)).not.toBeNull();
  });

  it('gives up after three challenges, and passes any other answer through', async () => {
    const challenge = challengeOf(4);
    let calls = 0;
    const always428 = async () => {
      calls++;
      return answer(428, { 'x-proof-of-work-challenge': challenge });
    };
    expect((await postWithProof('/x', '{}', { fetchImpl: always428 })).status).toBe(428);
    expect(calls).toBe(3);
    calls = 0;
    const noChallenge = async () => {
      calls++;
      return answer(428);
    };
    expect((await postWithProof('/x', '{}', { fetchImpl: noChallenge })).status).toBe(428);
    expect(calls).toBe(1);
  });

  it('says an expiry already past is an expired card, on the expiry input', () => {
    expect(fieldErrors([EXPIRED_CARD_INPUT])).toEqual({
      byInput: { 'card-expiry': 'Este cartão está vencido: confira a validade.' },
      general: [],
    });
    expect(fieldErrors(['card.expiryYear must be at least 2000']).byInput).toEqual({
      'card-expiry': 'Informe a validade no formato MM/AA.',
    });
  });

  it('shows the guard’s own sentence for a held form, the rate limit’s otherwise', () => {
    expect(
      tooManyMessage({
        code: 'card_attempts_blocked',
        message: 'Muitas tentativas de pagamento com cartão.',
      }),
    ).toBe('Muitas tentativas de pagamento com cartão.');
    expect(tooManyMessage({ code: 'rate_limited', message: 'x' })).toBe(
      'Muitas tentativas. Aguarde um momento e tente novamente.',
    );
    expect(tooManyMessage(undefined)).toBe('Muitas tentativas. Aguarde um momento e tente novamente.');
  });
});

describe('what the guard counts by', () => {
  it('counts an IPv4 client by its address (also inside ::ffff:) and an IPv6 client by its /64', () => {
    expect(clientKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:0db8:0001:0002:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('2001:DB8:0:0:ffff::2')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf('unknown')).toBe('unknown');
  });

  it('fingerprints a card with the key: the same number alike, nothing of the number or its plain hash', () => {
    const number = '4111111111111111';
    const print = cardFingerprint(KEY, number);
    expect(cardFingerprint(KEY, number)).toBe(print);
    expect(cardFingerprint(KEY, '4242424242424242')).not.toBe(print);
    expect(cardFingerprint(new Uint8Array(32).fill(1), number)).not.toBe(print);
    const plain = createHash('sha256').update(number).digest();
    for (const leak of [number, plain.toString('hex'), plain.toString('base64url')])
      expect(leak.includes(print) || print.includes(leak)).toBe(false);
  });
});
