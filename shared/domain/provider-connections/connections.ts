import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import type { CredentialsResolver, ProviderConnection } from '#shared/domain/ports/provider-connections';
import { NotFoundError } from '#shared/errors';
import { parseInput } from '#shared/validation';

export const ASAAS = 'asaas';
export const CONNECTION_NOT_FOUND = 'Provider connection not found';

/** PUT /api/provider-connections/asaas: the seller's Asaas API key and which Asaas environment it is of. */
export const connectProviderSchema = z.strictObject({
  // Asaas keys start with `$aact_` (sandbox and production alike): anything else is refused here,
  // without a call to Asaas.
  apiKey: z
    .string()
    .trim()
    .max(500)
    .regex(/^\$aact_[A-Za-z0-9_$:=+/.-]{20,}$/, 'apiKey must be an Asaas API key ($aact_…)')
    .describe('The Asaas API key ($aact_…); stored encrypted, never shown again'),
  environment: z.enum(['sandbox', 'production']).describe('The Asaas environment the key belongs to'),
});

export type ConnectionDeps = Pick<Deps, 'connections' | 'cipher' | 'providerAccounts' | 'clock'> & {
  /** Where the provider posts its webhooks (the seller pastes it into Asaas with the token). */
  webhookUrl: string;
};

/** The key's encryption context: a ciphertext copied to another seller's item does not decrypt. */
const keyContext = (sellerId: number) => ({ sellerId: String(sellerId), provider: ASAAS });

export const hashWebhookToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A connection as the dashboard sees it: never the key, never the webhook token. */
export const connectionView = (c: ProviderConnection) => ({
  provider: c.provider,
  environment: c.environment,
  accountName: c.accountName,
  apiKeyLast4: c.apiKeyLast4,
  connectedAt: c.connectedAt,
});

/**
 * Checks the key at the provider (its account name), then stores it encrypted with a fresh webhook
 * token, shown in this answer only. Connecting again replaces the key and the token.
 */
export async function connectProvider(deps: ConnectionDeps, sellerId: number, input: unknown) {
  const { apiKey, environment } = parseInput(connectProviderSchema, input);
  const accountName = await deps.providerAccounts.accountName({ apiKey, environment });
  const webhookToken = `whsec_asaas_${randomBytes(24).toString('base64url')}`;
  const connection: ProviderConnection = {
    sellerId,
    provider: ASAAS,
    environment,
    encryptedApiKey: await deps.cipher.encrypt(apiKey, keyContext(sellerId)),
    apiKeyLast4: apiKey.slice(-4),
    accountName,
    webhookTokenHash: hashWebhookToken(webhookToken),
    connectedAt: deps.clock.now().toISOString(),
  };
  await deps.connections.save(connection);
  return {
    ...connectionView(connection),
    webhook: { url: deps.webhookUrl, authToken: webhookToken, header: 'asaas-access-token' },
  };
}

export async function getProviderConnection(deps: Pick<ConnectionDeps, 'connections'>, sellerId: number) {
  const connection = await deps.connections.get(sellerId, ASAAS);
  if (!connection) throw new NotFoundError(CONNECTION_NOT_FOUND);
  return connectionView(connection);
}

export async function disconnectProvider(deps: Pick<ConnectionDeps, 'connections'>, sellerId: number) {
  const connection = await deps.connections.get(sellerId, ASAAS);
  if (!connection || !(await deps.connections.remove(connection)))
    throw new NotFoundError(CONNECTION_NOT_FOUND);
  return connectionView(connection);
}

/** The live adapter's credentials of a seller: the stored key, decrypted on use (never cached in logs). */
export function credentialsResolver(
  deps: Pick<ConnectionDeps, 'connections' | 'cipher'>,
): CredentialsResolver {
  return async (sellerId) => {
    const connection = await deps.connections.get(sellerId, ASAAS);
    if (!connection) return null;
    return {
      apiKey: await deps.cipher.decrypt(connection.encryptedApiKey, keyContext(sellerId)),
      environment: connection.environment,
    };
  };
}
