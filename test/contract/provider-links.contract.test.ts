import { describe, expect, it } from 'vitest';
import { createProviderLinks } from '#shared/adapters/dynamodb/provider-repositories';
import { ConditionFailedError } from '#shared/adapters/dynamodb/table';
import type { ProviderLinks, ProviderPixAuthorization } from '#shared/domain/ports/provider-connections';
import { MemoryProviderLinks } from '../support/fakes/provider-links';
import { freshTable } from './support';

/** The live provider's Pix Automático records: the fake and the DynamoDB adapter answer alike. */

const authorization = (over: Partial<ProviderPixAuthorization> = {}): ProviderPixAuthorization => ({
  authorizationId: 'd51008fa-e28e-4823-82b4-4b1fcf485229',
  sellerId: 7,
  account: 'sandbox',
  customerId: 'cus_000006869125',
  gatewayPayId: 123_456_789_012_345,
  conciliationId: 'AUT000080225913253',
  maxAmountCentavos: 4990,
  status: 'pending',
  ...over,
});

describe.each([
  ['the in-memory fake', async (): Promise<ProviderLinks> => new MemoryProviderLinks()],
  ['DynamoDB', async (): Promise<ProviderLinks> => createProviderLinks(await freshTable('links'), 'asaas')],
])('ProviderLinks Pix Automático authorizations (%s)', (_name, make) => {
  it('keeps the IP a card was saved from, per seller and token hash, and answers null for others', async () => {
    const links = await make();
    await links.rememberCardIp(7, 'a'.repeat(64), '203.0.113.7');
    expect(await links.cardIp(7, 'a'.repeat(64))).toBe('203.0.113.7');
    expect(await links.cardIp(8, 'a'.repeat(64))).toBeNull();
    expect(await links.cardIp(7, 'b'.repeat(64))).toBeNull();
  });

  it('stores an authorization, found by its id and by its QR conciliation id', async () => {
    const links = await make();
    await links.savePixAuthorization(authorization());
    expect(await links.pixAuthorization(authorization().authorizationId)).toEqual(authorization());
    expect(await links.pixAuthorizationOfConciliation('AUT000080225913253')).toEqual(authorization());
    expect(await links.pixAuthorization('unknown')).toBeNull();
    expect(await links.pixAuthorizationOfConciliation('unknown')).toBeNull();
  });

  it('refuses a second authorization with the same id or the same conciliation id', async () => {
    const links = await make();
    await links.savePixAuthorization(authorization());
    await expect(
      links.savePixAuthorization(authorization({ conciliationId: 'other' })),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(
      links.savePixAuthorization(authorization({ authorizationId: 'other' })),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await links.pixAuthorization('other')).toBeNull();
  });

  it('records status changes; a revoked authorization stays revoked; an unknown one is ignored', async () => {
    const links = await make();
    const { authorizationId } = authorization();
    await links.savePixAuthorization(authorization());
    await links.setPixAuthorizationStatus(authorizationId, 'active');
    expect((await links.pixAuthorization(authorizationId))?.status).toBe('active');
    await links.setPixAuthorizationStatus(authorizationId, 'revoked');
    await links.setPixAuthorizationStatus(authorizationId, 'active');
    expect((await links.pixAuthorization(authorizationId))?.status).toBe('revoked');
    await links.setPixAuthorizationStatus('unknown', 'active');
    expect(await links.pixAuthorization('unknown')).toBeNull();
  });
});
