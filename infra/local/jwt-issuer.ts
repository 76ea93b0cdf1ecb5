import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { SELLER_CLAIM } from '#shared/auth/authenticate';
import { PRIVATE_DIR_MODE } from './private-files';

/** Stands in for the Cognito user pool: same claims as a Cognito ID token (token_use, aud). */
export const LOCAL_ISSUER = 'http://localhost/local-issuer';
export const LOCAL_CLIENT_ID = 'local-dashboard';
export const JWKS_PATH = '/.well-known/jwks.json';

interface StoredKeys {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export class LocalIssuer {
  private constructor(private readonly keys: StoredKeys) {}

  /** Loads the key pair from the data folder, or makes one (kept there unless dataDir is null). */
  static async open(dataDir: string | null): Promise<LocalIssuer> {
    const file = dataDir ? join(dataDir, 'jwt-keys.json') : null;
    if (file && existsSync(file)) return new LocalIssuer(JSON.parse(readFileSync(file, 'utf8')));
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = `local-${Date.now().toString(36)}`;
    const keys: StoredKeys = {
      kid,
      privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256' },
      publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    };
    if (dataDir && file) {
      mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
    }
    return new LocalIssuer(keys);
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.keys.publicJwk] };
  }

  /** A dashboard ID token for a seller, as Cognito would issue it. */
  async sign(
    sellerId: number,
    options: {
      now?: Date;
      expiresInSeconds?: number;
      subject?: string;
      overrides?: Record<string, unknown>;
    } = {},
  ): Promise<string> {
    const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
    const key = await importJWK(this.keys.privateJwk, 'RS256');
    return new SignJWT({
      [SELLER_CLAIM]: String(sellerId),
      token_use: 'id',
      email: `seller${sellerId}@example.com`,
      ...(options.overrides ?? {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: this.keys.kid, typ: 'JWT' })
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_CLIENT_ID)
      .setSubject(options.subject ?? `seller-${sellerId}`)
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresInSeconds ?? 12 * 3600))
      .sign(key);
  }
}
