import { describe, expect, it } from 'vitest';
import { newEvent } from '#shared/domain/events/events';
import { FakeClock } from '../support/fakes/clock';
import { SequentialIds } from '../support/fakes/ids';

/**
 * `newEvent` is typed by the catalog: each event name takes its schema's payload. The
 * `@ts-expect-error` lines are the type-level half of this file: `tsc --noEmit` fails on an
 * unused directive, so loosening the typing (a `string` name, an `unknown` payload) breaks the
 * typecheck. They also run, so the run-time check behind the types is exercised with them.
 */
const deps = { ids: new SequentialIds(), clock: new FakeClock('2026-03-02T12:00:00.000Z') };
const tenant = { sellerId: 7, environment: 'test' } as const;
const product = { id: 1, name: 'Curso', value: 100, uuid: 'prod-uuid', sellerId: 7 };

describe('newEvent typed by the catalog', () => {
  it('builds the envelope of a catalog event with its payload', () => {
    const event = newEvent(deps, tenant, 'product.created', product);
    expect(event.tenant).toEqual(tenant);
    expect(event.envelope).toMatchObject({
      event: 'product.created',
      timestamp: '2026-03-02T12:00:00.000Z',
      data: product,
    });
  });

  it('refuses an event name outside the catalog, at compile time and at run time', () => {
    // @ts-expect-error not an event of the catalog
    expect(() => newEvent(deps, tenant, 'product.exploded', product)).toThrow(/unknown event/);
  });

  it('refuses a payload that lacks what its event requires', () => {
    const { sellerId: _sellerId, ...withoutSeller } = product;
    // @ts-expect-error product.created requires sellerId
    expect(() => newEvent(deps, tenant, 'product.created', withoutSeller)).toThrow(/does not match/);
  });

  it("refuses another event's payload and a field of the wrong type", () => {
    const session = {
      id: 'cs_1',
      status: 'expired' as const,
      product_id: 1,
      metadata: {},
      client_reference_id: null,
      expires_at: '2026-03-02T12:00:00.000Z',
    };
    expect(newEvent(deps, tenant, 'checkout.session.expired', session).envelope.event).toBe(
      'checkout.session.expired',
    );
    // @ts-expect-error checkout.session.completed is not checkout.session.expired's payload
    expect(() => newEvent(deps, tenant, 'checkout.session.completed', session)).toThrow(/does not match/);
    // @ts-expect-error value is centavos as a number
    expect(() => newEvent(deps, tenant, 'product.created', { ...product, value: '1,00' })).toThrow(
      /does not match/,
    );
  });
});
