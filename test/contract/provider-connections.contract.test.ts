import { describe, expect, it } from 'vitest';
import { createProviderConnectionRepository } from '#shared/adapters/dynamodb/provider-repositories';
import type { ProviderConnection } from '#shared/domain/ports/provider-connections';
import { freshTable } from './support';

/** The seller's provider connection in DynamoDB: removal deletes the connection as it was read. */

const connection = (over: Partial<ProviderConnection> = {}): ProviderConnection => ({
  sellerId: 7,
  provider: 'asaas',
  environment: 'sandbox',
  encryptedApiKey: 'c2VhbGVk',
  apiKeyLast4: 'f00d',
  accountName: 'Loja da Ana',
  webhookTokenHash: 'a'.repeat(64),
  connectedAt: '2026-11-24T12:00:00.000Z',
  ...over,
});

describe('ProviderConnectionRepository.remove (DynamoDB)', () => {
  it('deletes the connection and its webhook token in one write; a second remove answers false', async () => {
    const repo = createProviderConnectionRepository(await freshTable('connections'));
    await repo.save(connection());

    expect(await repo.remove(connection())).toBe(true);

    expect(await repo.get(7, 'asaas')).toBeNull();
    expect(await repo.sellerOfWebhookToken('asaas', 'a'.repeat(64))).toBeNull();
    expect(await repo.remove(connection())).toBe(false);
  });

  it('refuses to remove a connection replaced since it was read: the new one and its token stay', async () => {
    const repo = createProviderConnectionRepository(await freshTable('connections'));
    const read = connection();
    await repo.save(read);
    const replaced = connection({ webhookTokenHash: 'b'.repeat(64), accountName: 'Loja nova' });
    await repo.save(replaced);

    await expect(repo.remove(read)).rejects.toMatchObject({ statusCode: 409, reason: 'changed' });

    expect(await repo.get(7, 'asaas')).toEqual(replaced);
    expect(await repo.sellerOfWebhookToken('asaas', 'b'.repeat(64))).toBe(7);
    expect(await repo.sellerOfWebhookToken('asaas', 'a'.repeat(64))).toBeNull();
  });
});
