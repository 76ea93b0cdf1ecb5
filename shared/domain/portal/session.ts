import { hashKey } from '#shared/domain/auth/api-keys';
import type { Tenant } from '#shared/domain/tenant';

/** Spec Limits: a portal token is valid for 1 hour. */
export const PORTAL_TOKEN_TTL_MS = 3_600_000;
export const PORTAL_TOKEN_PREFIX = 'pt';
export const INSUFFICIENT_PERMISSIONS = 'Insufficient permissions';

/**
 * A customer portal session. The token is shown once (in the creation answer and the portal URL);
 * only its SHA-256 is stored, under which the session is found.
 */
export interface PortalSession {
  /** From the `portal-session` sequence (the spec's numeric sessionId). */
  id: number;
  tokenHash: string;
  tenant: Tenant;
  customer: { id: number; uuid: string };
  /** The product whose portal configuration applies; null = the seller's configuration. */
  productId: number | null;
  returnUrl: string | null;
  expiresAt: string;
  createdAt: string;
}

// The token's shape and hash live here, not in sessions.ts (which builds zod schemas at load):
// the portalToken verifier runs on every portal request and loads with the portal function.

/** 43 base62 characters: about 256 bits from the CSPRNG, as long as a SHA-256 of it. */
export const PORTAL_TOKEN_LENGTH = 43;
export const PORTAL_TOKEN_FORMAT = /^pt_[0-9A-Za-z]{43}$/;

/** The hash a session is stored and found under: the token itself is never kept. */
export const portalTokenHash = (token: string) => hashKey(token);
