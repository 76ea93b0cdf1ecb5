import type { SecretKey } from '#shared/domain/ports';

/**
 * The sandbox notifications' key as the secret string events/signing takes (its hex): the sandbox
 * signs with it and the signed notification route verifies with it.
 */
export async function notificationSecret(key: SecretKey): Promise<string> {
  return Buffer.from(await key.key()).toString('hex');
}
