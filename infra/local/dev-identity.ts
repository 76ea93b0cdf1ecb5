import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiKey } from '#shared/domain/auth/api-keys';
import type { Container } from '#shared/platform/container';
import type { LocalIssuer } from './jwt-issuer';
import { PRIVATE_DIR_MODE } from './private-files';

export interface DevCredentials {
  baseUrl: string;
  sellerId: number;
  dashboardToken: string;
  apiKey: string;
}

/** First start: a demo seller, a sandbox API key and a dashboard token in dev-credentials.json. */
export async function ensureDevIdentity(
  container: Container,
  issuer: LocalIssuer,
  baseUrl: string,
  dataDir: string | null,
): Promise<DevCredentials> {
  const file = dataDir ? join(dataDir, 'dev-credentials.json') : null;
  let previous: Partial<DevCredentials> = {};
  if (file && existsSync(file)) {
    try {
      previous = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      previous = {};
    }
  }
  const now = container.clock.now();
  // The key and the token are credentials: real time, so that advancing the test clock keeps them valid.
  const realNow = container.wallClock.now();
  let sellerId = previous.sellerId;
  let apiKey = previous.apiKey;
  if (!sellerId || !(await container.repos.sellers.exists(sellerId))) {
    sellerId = await container.repos.sellers.create('Loja Demonstração', now);
    apiKey = undefined;
  }
  if (!apiKey) {
    const created = await createApiKey(
      { apiKeys: container.repos.apiKeys, clock: container.wallClock, ids: container.ids },
      sellerId,
      { name: `dev-${realNow.getTime()}`, environment: 'test' },
    );
    apiKey = created.key;
  }
  const credentials: DevCredentials = {
    baseUrl,
    sellerId,
    dashboardToken: await issuer.sign(sellerId, { now: realNow, expiresInSeconds: 30 * 86_400 }),
    apiKey,
  };
  if (file && dataDir) {
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  }
  return credentials;
}
