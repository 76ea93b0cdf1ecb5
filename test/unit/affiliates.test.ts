import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Affiliation } from '#shared/domain/affiliates/affiliation';
import {
  type AffiliationDeps,
  addAffiliation,
  endAffiliation,
  findActiveAffiliation,
  listAffiliations,
  requireActiveAffiliation,
} from '#shared/domain/affiliates/affiliations';
import {
  affiliateSale,
  commissionReversed,
  commissionSplit,
  toAffiliateCommissionView,
  toTransactionAffiliateView,
} from '#shared/domain/affiliates/commission';
import { addAffiliationSchema, listAffiliationsQuerySchema } from '#shared/domain/affiliates/schemas';
import type { Product } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { MAX_CENTAVOS } from '#shared/money';
import { parseInput } from '#shared/validation';
import { FakeAffiliationRepository } from '../support/fakes/affiliation-repository';
import { FakeClock } from '../support/fakes/clock';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { FakeSellerRepository } from '../support/fakes/seller-repository';
import { PRODUCT_UUID, product as productFixture, SELLER } from '../support/fixtures';

const NOW = '2026-03-10T15:00:00.000Z';
const AFFILIATE = 8;
const OTHER_AFFILIATE = 9;

const product = (overrides: Partial<Product> = {}) =>
  productFixture({ value: 10_000, createdAt: NOW, updatedAt: NOW, ...overrides });

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e,
  );

describe('commissionSplit', () => {
  it.each([
    // value seller, basis points, commission, value seller after
    [9_901, 1_000, 990, 8_911], // 990.1 rounds down
    [9_905, 1_000, 991, 8_914], // 990.5 rounds half up
    [1, 5_000, 1, 0], // half a centavo goes to the affiliate
    [1, 4_999, 0, 1],
    [0, 9_000, 0, 0],
    [10_000, 1, 1, 9_999], // 0.01 % of R$ 100
    [10_000, 9_000, 9_000, 1_000],
    [12_345, 10_000, 12_345, 0],
    [12_345, 0, 0, 12_345],
  ])('splits %i centavos at %i basis points into %i + %i', (value, bp, commission, valueSeller) => {
    expect(commissionSplit(value, bp)).toEqual({ commission, valueSeller });
  });

  const value = fc.integer({ min: 0, max: MAX_CENTAVOS });
  const basisPoints = fc.integer({ min: 0, max: 10_000 });

  it('always adds up to the input exactly, in integers, with 0 <= commission <= input', () => {
    fc.assert(
      fc.property(value, basisPoints, (v, bp) => {
        const { commission, valueSeller } = commissionSplit(v, bp);
        expect(Number.isSafeInteger(commission) && Number.isSafeInteger(valueSeller)).toBe(true);
        expect(commission + valueSeller).toBe(v);
        expect(commission).toBeGreaterThanOrEqual(0);
        expect(commission).toBeLessThanOrEqual(v);
      }),
    );
  });

  it('never gives a smaller commission for a larger percent', () => {
    fc.assert(
      fc.property(value, basisPoints, basisPoints, (v, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(commissionSplit(v, low).commission).toBeLessThanOrEqual(commissionSplit(v, high).commission);
      }),
    );
  });

  it('is the exact percent rounded half up: within half a centavo of the real product', () => {
    fc.assert(
      fc.property(value, basisPoints, (v, bp) => {
        const twice = 2 * commissionSplit(v, bp).commission * 10_000;
        // |commission - v*bp/10000| <= 1/2, and an exact half rounds up.
        expect(twice - 2 * v * bp).toBeLessThanOrEqual(10_000);
        expect(2 * v * bp - twice).toBeLessThan(10_000);
      }),
    );
  });

  it.each([
    [-1, 100],
    [1.5, 100],
    [100, -1],
    [100, 10_001],
    [100, 12.5],
  ])('refuses %s centavos at %s basis points (a programming error, not input)', (v, bp) => {
    expect(() => commissionSplit(v, bp)).toThrow(RangeError);
  });
});

describe('affiliateSale', () => {
  it('takes the commission out of the seller net and records the affiliate at its percent', () => {
    const sale = affiliateSale({ affiliateId: AFFILIATE, commissionBasisPoints: 1_250 }, 9_901);
    expect(sale).toEqual({
      valueSeller: 8_663,
      affiliate: { affiliateId: AFFILIATE, commissionPercent: 12.5, commission: 1_238 },
    });
    expect(toAffiliateCommissionView(sale.affiliate!)).toEqual({
      affiliateId: AFFILIATE,
      commissionPercent: 12.5,
      commission: 12.38,
    });
    const untouched = { value: 9_901, refundedAmount: 0, chargebackOpen: false };
    expect(toTransactionAffiliateView(sale.affiliate!, untouched)).toEqual({
      affiliateId: AFFILIATE,
      commissionPercent: 12.5,
      commission: 12.38,
      commissionReversed: 0,
      net: 12.38,
    });
  });

  it("shows a partial refund's share of the commission taken back and the affiliate's net", () => {
    const affiliate = { affiliateId: AFFILIATE, commissionPercent: 12.5, commission: 1_238 };
    // R$ 33.00 of R$ 99.01 refunded: floor(1238 × 3300 / 9901) = 412 centavos reversed.
    expect(
      toTransactionAffiliateView(affiliate, { value: 9_901, refundedAmount: 3_300, chargebackOpen: false }),
    ).toMatchObject({ commission: 12.38, commissionReversed: 4.12, net: 8.26 });
  });

  it('leaves the net unchanged without an affiliate', () => {
    expect(affiliateSale(null, 9_901)).toEqual({ valueSeller: 9_901, affiliate: null });
  });
});

describe('commissionReversed', () => {
  const sale = (value: number, refundedAmount: number, chargebackOpen = false) => ({
    value,
    refundedAmount,
    chargebackOpen,
  });

  it.each([
    [1_238, 9_901, 0, 0],
    [1_238, 9_901, 9_901, 1_238], // a full refund takes it all back
    [1_238, 9_901, 4_950, 618], // floor(1238 × 4950 / 9901) = 618.9…: rounded down
    [1_000, 3, 1, 333],
    [1_000, 3, 2, 666],
    [1_000, 3, 3, 1_000], // the last refund completes it
    [0, 5_000, 5_000, 0],
  ])('a commission of %i on a sale of %i refunded %i takes back %i', (commission, value, refunded, out) => {
    expect(commissionReversed(commission, sale(value, refunded))).toBe(out);
  });

  it('takes all of it back while a chargeback is open, and only the refunded share once it is won', () => {
    expect(commissionReversed(1_238, sale(9_901, 0, true))).toBe(1_238);
    expect(commissionReversed(1_238, sale(9_901, 3_300, true))).toBe(1_238);
    expect(commissionReversed(1_238, sale(9_901, 3_300, false))).toBe(412);
  });

  const value = fc.integer({ min: 1, max: MAX_CENTAVOS });
  const refundsOf = (v: number) =>
    fc.array(fc.integer({ min: 1, max: v }), { minLength: 1, maxLength: 12 }).map((parts) => {
      // Refunds as a provider accepts them: each at most what is left of the sale.
      const out: number[] = [];
      let left = v;
      for (const p of parts) {
        const r = Math.min(p, left);
        if (r > 0) out.push(r);
        left -= r;
      }
      return out;
    });

  it('never reverses more than the commission, over any sequence of partial refunds, in integers', () => {
    fc.assert(
      fc.property(
        value.chain((v) => fc.tuple(fc.constant(v), fc.integer({ min: 0, max: v }), refundsOf(v))),
        ([v, commission, refunds]) => {
          let refunded = 0;
          let reversedSoFar = 0;
          let sumOfReversals = 0;
          for (const r of refunds) {
            refunded += r;
            const now = commissionReversed(commission, sale(v, refunded));
            expect(Number.isSafeInteger(now)).toBe(true);
            // Each refund's reversal is what the total moved by: never negative.
            expect(now).toBeGreaterThanOrEqual(reversedSoFar);
            sumOfReversals += now - reversedSoFar;
            reversedSoFar = now;
            // Pro rata, rounded down: within one centavo below the exact share, never above it.
            const exact = BigInt(commission) * BigInt(refunded);
            expect(BigInt(now) * BigInt(v) <= exact).toBe(true);
            expect(BigInt(now + 1) * BigInt(v) > exact).toBe(true);
          }
          expect(sumOfReversals).toBeLessThanOrEqual(commission);
          if (refunded === v) expect(sumOfReversals).toBe(commission);
        },
      ),
    );
  });
});

describe('the add body', () => {
  const messagesOf = (raw: unknown) => {
    try {
      parseInput(addAffiliationSchema, raw);
      return null;
    } catch (error) {
      return (error as ValidationError).messages;
    }
  };

  it.each([
    [12.5, 1_250],
    [0.01, 1],
    [90, 9_000],
    [4.35, 435],
    [1.1, 110],
  ])('reads commissionPercent %s as %i basis points', (percent, bp) => {
    expect(parseInput(addAffiliationSchema, { affiliateId: 3, commissionPercent: percent })).toEqual({
      affiliateId: 3,
      commissionPercent: bp,
    });
  });

  it.each([0, -0, -5, 90.01, 100, 12.345, 0.001])(
    'refuses commissionPercent %s naming the field',
    (percent) => {
      expect(messagesOf({ affiliateId: 3, commissionPercent: percent })).toEqual([
        'commissionPercent must be between 0.01 and 90 with at most 2 decimal places',
      ]);
    },
  );

  it.each([
    [{ affiliateId: 3 }, ['commissionPercent is required']],
    [{ affiliateId: 3, commissionPercent: '10' }, ['commissionPercent must be a number']],
    [{ commissionPercent: 10 }, ['affiliateId is required']],
    [{ affiliateId: '3', commissionPercent: 10 }, ['affiliateId must be a seller id']],
    [{ affiliateId: 1.5, commissionPercent: 10 }, ['affiliateId must be a seller id (a positive integer)']],
    [{ affiliateId: 0, commissionPercent: 10 }, ['affiliateId must be a seller id (a positive integer)']],
    [{ affiliateId: 3, commissionPercent: 10, extra: 1 }, ['extra is not allowed']],
  ])('refuses %j with %j', (raw, messages) => {
    expect(messagesOf(raw)).toEqual(messages);
  });

  it('takes an optional status filter on the list', () => {
    expect(listAffiliationsQuerySchema.parse({})).toEqual({});
    expect(listAffiliationsQuerySchema.parse({ status: 'ended' })).toEqual({ status: 'ended' });
    expect(() => parseInput(listAffiliationsQuerySchema, { status: 'paused' })).toThrow(ValidationError);
  });
});

describe('affiliation use cases', () => {
  let sellers: FakeSellerRepository;
  let products: FakeProductRepository;
  let affiliations: FakeAffiliationRepository;
  let clock: FakeClock;
  let deps: AffiliationDeps;
  const body = (affiliateId: number, commissionPercent: number) =>
    parseInput(addAffiliationSchema, { affiliateId, commissionPercent });

  beforeEach(() => {
    sellers = new FakeSellerRepository();
    for (const id of [SELLER.sellerId, AFFILIATE, OTHER_AFFILIATE])
      sellers.seed({ id, name: `Seller ${id}`, createdAt: NOW });
    products = new FakeProductRepository();
    products.seed(product());
    affiliations = new FakeAffiliationRepository(sellers);
    clock = new FakeClock(NOW);
    deps = { affiliations, products, clock };
  });

  describe('addAffiliation', () => {
    it('adds an active affiliation by product id or uuid and answers it with the percent', async () => {
      expect(await addAffiliation(deps, SELLER, '42', body(AFFILIATE, 12.5))).toEqual({
        productId: 42,
        affiliateId: AFFILIATE,
        commissionPercent: 12.5,
        status: 'active',
        createdAt: NOW,
        updatedAt: NOW,
        endedAt: null,
      });
      await addAffiliation(deps, SELLER, PRODUCT_UUID.toUpperCase(), body(OTHER_AFFILIATE, 3));
      expect((await affiliations.get(SELLER, 42, OTHER_AFFILIATE))?.commissionBasisPoints).toBe(300);
    });

    it("refuses the product's own seller as its affiliate, naming affiliateId", async () => {
      const error = await caught(addAffiliation(deps, SELLER, '42', body(SELLER.sellerId, 10)));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).messages).toEqual(["affiliateId cannot be the product's own seller"]);
      expect(affiliations.writes).toBe(0);
    });

    it('refuses an affiliate that is not a seller, naming affiliateId', async () => {
      const error = await caught(addAffiliation(deps, SELLER, '42', body(123_456, 10)));
      expect((error as ValidationError).messages).toEqual([
        'affiliateId must be the id of an existing seller',
      ]);
      expect(error).toMatchObject({ statusCode: 400 });
    });

    it.each([
      ['another seller', { sellerId: 99, environment: 'test' } as Tenant],
      ['another environment', { sellerId: 7, environment: 'live' } as Tenant],
    ])('answers Product not found for a product of %s', async (_what, tenant) => {
      for (const ref of ['42', PRODUCT_UUID]) {
        const error = await caught(addAffiliation(deps, tenant, ref, body(AFFILIATE, 10)));
        expect(error).toBeInstanceOf(NotFoundError);
        expect((error as NotFoundError).message).toBe('Product not found');
      }
      expect(affiliations.writes).toBe(0);
    });

    it('answers Product not found for a deactivated product (it no longer sells)', async () => {
      products.seed(product({ isActive: false }));
      expect(await caught(addAffiliation(deps, SELLER, '42', body(AFFILIATE, 10)))).toBeInstanceOf(
        NotFoundError,
      );
    });

    it('answers 409 for an affiliate already active on the product, keeping its commission', async () => {
      await addAffiliation(deps, SELLER, '42', body(AFFILIATE, 10));
      const error = await caught(addAffiliation(deps, SELLER, '42', body(AFFILIATE, 20)));
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).statusCode).toBe(409);
      expect((await affiliations.get(SELLER, 42, AFFILIATE))?.commissionBasisPoints).toBe(1_000);
    });

    it('starts an ended affiliation again with the new commission', async () => {
      await addAffiliation(deps, SELLER, '42', body(AFFILIATE, 10));
      clock.advanceSeconds(60);
      await endAffiliation(deps, SELLER, '42', String(AFFILIATE));
      clock.advanceSeconds(60);
      const again = await addAffiliation(deps, SELLER, '42', body(AFFILIATE, 20));
      expect(again).toMatchObject({ status: 'active', commissionPercent: 20, endedAt: null });
      expect(again.createdAt).toBe('2026-03-10T15:02:00.000Z');
    });
  });

  describe('listAffiliations', () => {
    beforeEach(async () => {
      await addAffiliation(deps, SELLER, '42', body(OTHER_AFFILIATE, 5));
      await addAffiliation(deps, SELLER, '42', body(AFFILIATE, 10));
      await endAffiliation(deps, SELLER, '42', String(OTHER_AFFILIATE));
    });

    it('lists by affiliate id, all or one status, by id or uuid', async () => {
      const all = await listAffiliations(deps, SELLER, '42');
      expect(all.data.map((a) => [a.affiliateId, a.status])).toEqual([
        [AFFILIATE, 'active'],
        [OTHER_AFFILIATE, 'ended'],
      ]);
      expect((await listAffiliations(deps, SELLER, PRODUCT_UUID, 'active')).data).toHaveLength(1);
      expect((await listAffiliations(deps, SELLER, '42', 'ended')).data[0].affiliateId).toBe(OTHER_AFFILIATE);
    });

    it('answers an empty list for a product of the tenant without affiliates, deactivated or not', async () => {
      products.seed(product({ id: 43, uuid: 'aaaaaaaa-bbbb-4ccc-8ddd-000000000043', isActive: false }));
      expect(await listAffiliations(deps, SELLER, '43')).toEqual({ data: [] });
      expect(await listAffiliations(deps, SELLER, 'aaaaaaaa-bbbb-4ccc-8ddd-000000000043')).toEqual({
        data: [],
      });
    });

    it.each(['42', PRODUCT_UUID, '4242', 'not-an-id'])(
      'answers Product not found to another seller for %s',
      async (ref) => {
        const error = await caught(listAffiliations(deps, { sellerId: 99, environment: 'test' }, ref));
        expect((error as NotFoundError).message).toBe('Product not found');
      },
    );
  });

  describe('endAffiliation', () => {
    beforeEach(async () => {
      await addAffiliation(deps, SELLER, '42', body(AFFILIATE, 10));
      clock.advanceSeconds(3_600);
    });

    it('ends the affiliation and answers it with endedAt', async () => {
      expect(await endAffiliation(deps, SELLER, PRODUCT_UUID, String(AFFILIATE))).toEqual({
        productId: 42,
        affiliateId: AFFILIATE,
        commissionPercent: 10,
        status: 'ended',
        createdAt: NOW,
        updatedAt: '2026-03-10T16:00:00.000Z',
        endedAt: '2026-03-10T16:00:00.000Z',
      });
    });

    it('answers an ended affiliation unchanged when ended again', async () => {
      const first = await endAffiliation(deps, SELLER, '42', String(AFFILIATE));
      clock.advanceSeconds(60);
      expect(await endAffiliation(deps, SELLER, '42', String(AFFILIATE))).toEqual(first);
      expect(affiliations.writes).toBe(2);
    });

    it.each([String(OTHER_AFFILIATE), '123456', 'abc', '-1'])(
      'answers Affiliation not found for affiliate %s of an existing product',
      async (raw) => {
        const error = await caught(endAffiliation(deps, SELLER, '42', raw));
        expect((error as NotFoundError).message).toBe('Affiliation not found');
      },
    );

    it.each([
      ['42', String(AFFILIATE)],
      [PRODUCT_UUID, String(AFFILIATE)],
      ['42', 'abc'],
    ])('answers Product not found to another environment for product %s, affiliate %s', async (ref, raw) => {
      const error = await caught(endAffiliation(deps, { sellerId: 7, environment: 'live' }, ref, raw));
      expect((error as NotFoundError).message).toBe('Product not found');
      expect((await affiliations.get(SELLER, 42, AFFILIATE))?.status).toBe('active');
    });
  });

  describe('findActiveAffiliation and requireActiveAffiliation', () => {
    it('finds an active affiliation, and nothing once it ended or for another tenant', async () => {
      await addAffiliation(deps, SELLER, '42', body(AFFILIATE, 10));
      const found = (await findActiveAffiliation(deps, SELLER, 42, AFFILIATE)) as Affiliation;
      expect(found).toMatchObject({ productId: 42, affiliateId: AFFILIATE, commissionBasisPoints: 1_000 });
      expect(await findActiveAffiliation(deps, { ...SELLER, environment: 'live' }, 42, AFFILIATE)).toBeNull();
      expect(await findActiveAffiliation(deps, SELLER, 42, OTHER_AFFILIATE)).toBeNull();
      await endAffiliation(deps, SELLER, '42', String(AFFILIATE));
      expect(await findActiveAffiliation(deps, SELLER, 42, AFFILIATE)).toBeNull();
    });

    it('refuses an affiliate without an active affiliation with a 400 naming the field', async () => {
      const error = await caught(requireActiveAffiliation(deps, SELLER, 42, AFFILIATE, 'affiliateId'));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).messages).toEqual([
        'affiliateId must be an active affiliate of the product',
      ]);
      await addAffiliation(deps, SELLER, '42', body(AFFILIATE, 10));
      expect((await requireActiveAffiliation(deps, SELLER, 42, AFFILIATE)).affiliateId).toBe(AFFILIATE);
    });
  });
});
