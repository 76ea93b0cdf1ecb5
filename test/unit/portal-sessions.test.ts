import { beforeEach, describe, expect, it } from 'vitest';
import { cryptoIds } from '#shared/adapters/system/ids';
import { hashKey } from '#shared/domain/auth/api-keys';
import { PORTAL_TOKEN_FORMAT, PORTAL_TOKEN_TTL_MS } from '#shared/domain/portal/session';
import {
  createPortalSession,
  createPortalSessionSchema,
  type PortalSessionDeps,
} from '#shared/domain/portal/sessions';
import { portalAuthContext, verifyPortalToken } from '#shared/domain/portal/verifier';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError, UnauthorizedError, ValidationError } from '#shared/errors';
import { parseInput } from '#shared/validation';
import { FakeClock } from '../support/fakes/clock';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { SequentialIds } from '../support/fakes/ids';
import { FakePortalSessionRepository } from '../support/fakes/portal-session-repository';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { customerProfile, product as productFixture, SELLER } from '../support/fixtures';

const OTHER: Tenant = { sellerId: 8, environment: 'test' };
const NOW = '2026-03-10T15:00:00.000Z';
const MARIA_UUID = '4b0d3c4e-8a51-4d4e-9a43-4c9a3f0b2a11';

const profile = (tenant: Tenant, id: number, uuid: string) =>
  customerProfile({ tenant, id, uuid, createdAt: NOW });

const product = (tenant: Tenant, id: number, isActive = true) =>
  productFixture({
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant,
    name: 'Clube do livro',
    image: 'https://cdn.example/livro.png',
    boleto: false,
    isActive,
    createdAt: NOW,
    updatedAt: NOW,
  });

let clock: FakeClock;
let sessions: FakePortalSessionRepository;
let customers: FakeCustomerRepository;
let products: FakeProductRepository;
let deps: PortalSessionDeps;

beforeEach(async () => {
  clock = new FakeClock(NOW);
  sessions = new FakePortalSessionRepository(500);
  customers = new FakeCustomerRepository();
  products = new FakeProductRepository();
  await customers.addProfile(profile(SELLER, 41, MARIA_UUID));
  await customers.addProfile(profile(OTHER, 99, '9f1e2d3c-4b5a-4697-8877-665544332211'));
  products.seed(product(SELLER, 12));
  products.seed(product(SELLER, 13, false));
  products.seed(product(OTHER, 14));
  deps = {
    portalSessions: sessions,
    customers,
    products,
    clock,
    ids: new SequentialIds(),
    publicBaseUrl: 'https://pay.example.com/',
    allowLocalHttp: false,
  };
});

const body = (raw: Record<string, unknown> = {}) =>
  parseInput(createPortalSessionSchema, { customerId: 41, ...raw });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: unknown) => error,
  );
}

function messagesOf(raw: unknown): string[] {
  try {
    parseInput(createPortalSessionSchema, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).messages as string[];
  }
  throw new Error('expected the body to be refused');
}

describe('createPortalSession', () => {
  it('answers the session id, a pt_ token, an expiry one hour ahead and the portal URL with the token', async () => {
    const created = await createPortalSession(deps, SELLER, body());

    expect(created).toEqual({
      sessionId: 500,
      token: expect.stringMatching(PORTAL_TOKEN_FORMAT),
      expiresAt: new Date(Date.parse(NOW) + PORTAL_TOKEN_TTL_MS).toISOString(),
      portalUrl: `https://pay.example.com/portal?token=${created.token}`,
    });
    expect(created.expiresAt).toBe('2026-03-10T16:00:00.000Z');
  });

  it('stores only the SHA-256 of the token, with the customer, the product and the return URL', async () => {
    const created = await createPortalSession(
      deps,
      SELLER,
      body({ productId: 12, returnUrl: 'https://loja.example.com/conta' }),
    );

    const stored = [...sessions.items.values()];
    expect(stored).toEqual([
      {
        id: 500,
        tokenHash: hashKey(created.token),
        tenant: SELLER,
        customer: { id: 41, uuid: MARIA_UUID },
        productId: 12,
        returnUrl: 'https://loja.example.com/conta',
        expiresAt: created.expiresAt,
        createdAt: NOW,
      },
    ]);
    expect(JSON.stringify(stored)).not.toContain(created.token);
  });

  it('draws 43 base62 characters from the CSPRNG for each token (a new token per call)', async () => {
    const real = { ...deps, ids: cryptoIds };
    const a = await createPortalSession(real, SELLER, body());
    const b = await createPortalSession(real, SELLER, body());

    expect(a.token).toMatch(/^pt_[0-9A-Za-z]{43}$/);
    expect(b.token).not.toBe(a.token);
    expect(b.sessionId).toBe(a.sessionId + 1);
  });

  it('keeps a session without productId or returnUrl as null (the seller configuration applies)', async () => {
    await createPortalSession(deps, SELLER, body());

    expect([...sessions.items.values()][0]).toMatchObject({ productId: null, returnUrl: null });
  });

  it('accepts an archived product of the seller: its subscribers still manage their subscriptions', async () => {
    await createPortalSession(deps, SELLER, body({ productId: 13 }));

    expect([...sessions.items.values()][0].productId).toBe(13);
  });

  it("answers 404 Customer not found for an unknown customer and for another seller's", async () => {
    for (const customerId of [40, 99]) {
      const error = await rejection(createPortalSession(deps, SELLER, body({ customerId })));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).message).toBe('Customer not found');
    }
    expect(sessions.items.size).toBe(0);
  });

  it("answers 404 Product not found for an unknown product and for another seller's", async () => {
    for (const productId of [15, 14]) {
      const error = await rejection(createPortalSession(deps, SELLER, body({ productId })));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).message).toBe('Product not found');
    }
    expect(sessions.items.size).toBe(0);
  });

  it('refuses a plain-HTTP or credentialed returnUrl with 400 naming returnUrl', async () => {
    for (const returnUrl of ['http://loja.example.com/conta', 'https://u:p@loja.example.com/']) {
      const error = await rejection(createPortalSession(deps, SELLER, body({ returnUrl })));
      expect(error).toBeInstanceOf(ValidationError);
      expect(((error as ValidationError).messages as string[])[0]).toMatch(/^returnUrl /);
    }
  });

  it('accepts http://localhost as returnUrl only where local HTTP is allowed (the local runtime)', async () => {
    const local = body({ returnUrl: 'http://localhost:3000/conta' });
    await expect(createPortalSession(deps, SELLER, local)).rejects.toThrow(/returnUrl must use HTTPS/);
    await expect(
      createPortalSession({ ...deps, allowLocalHttp: true }, SELLER, local),
    ).resolves.toMatchObject({
      sessionId: 500,
    });
  });
});

describe('createPortalSessionSchema', () => {
  it('names each bad field', () => {
    expect(messagesOf({})).toEqual(['customerId is required']);
    expect(messagesOf({ customerId: '41' })).toEqual([
      'customerId must be a customer id (a positive integer)',
    ]);
    expect(messagesOf({ customerId: 0 })).toEqual(['customerId must be a customer id (a positive integer)']);
    expect(messagesOf({ customerId: 41, productId: 1.5 })).toEqual([
      'productId must be a product id (a positive integer)',
    ]);
    expect(messagesOf({ customerId: 41, returnUrl: 'not a url' })).toEqual(['returnUrl must be a valid URL']);
    expect(messagesOf({ customerId: 41, returnUrl: 7 })).toEqual(['returnUrl must be a URL']);
    expect(messagesOf({ customerId: 41, token: 'x' })).toEqual(['token is not allowed']);
  });
});

describe('verifyPortalToken', () => {
  let token: string;

  beforeEach(async () => {
    ({ token } = await createPortalSession(deps, SELLER, body({ productId: 12 })));
  });

  it("answers the token's session while its hour lasts", async () => {
    clock.advanceSeconds(3599);
    const session = await verifyPortalToken(deps, token);

    expect(session).toMatchObject({ id: 500, tenant: SELLER, customer: { id: 41, uuid: MARIA_UUID } });
    expect(portalAuthContext(session)).toEqual({
      scheme: 'portalToken',
      tenant: SELLER,
      principal: 'portal:500',
      subject: session,
    });
  });

  it('answers 401 token_expired once the hour is over, though the item is still stored', async () => {
    clock.advanceSeconds(3600);

    const error = await rejection(verifyPortalToken(deps, token));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).code).toBe('token_expired');
    expect(sessions.items.size).toBe(1);
  });

  it('answers 401 for a missing, malformed or unknown token', async () => {
    const unknown = `pt_${'A'.repeat(43)}`;
    for (const candidate of [undefined, '', token.slice(0, -1), `${token}x`, token.toUpperCase(), unknown]) {
      await expect(verifyPortalToken(deps, candidate)).rejects.toBeInstanceOf(UnauthorizedError);
    }
  });
});
