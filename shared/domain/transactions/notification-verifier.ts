import { SignatureVerificationError, verifySignature } from '#events/signing';
import { registerSchemeVerifier } from '#shared/auth/authenticate';
import { notificationSecret } from '#shared/domain/payments/notification-secret';
import { UnauthorizedError } from '#shared/errors';

/**
 * Registers the `signature` scheme: the sandbox's `X-Signature` over the raw body, made with the
 * notification key (`gatewayWebhook`). Nobody may mark a payment paid by posting JSON, so the
 * signature is checked before the route reads anything; a bad one is a failed authentication of
 * the client address, counted and limited as every other. Registering twice is harmless.
 */
export function useProviderSignatures(): void {
  registerSchemeVerifier('signature', async (req) => {
    const secret = await notificationSecret(req.container.secrets.gatewayWebhook);
    try {
      verifySignature({
        header: req.headers['x-signature'],
        rawBody: req.rawBody,
        secrets: secret,
        now: req.container.clock.now(),
      });
    } catch (error) {
      if (error instanceof SignatureVerificationError)
        throw new UnauthorizedError('Invalid notification signature', { cause: error });
      throw error;
    }
    return { scheme: 'signature', principal: 'provider:sandbox' };
  });
}
