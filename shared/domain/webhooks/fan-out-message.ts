import * as z from 'zod';
import type { BusDetail } from '#shared/domain/events/events';

/**
 * What the fan-out needs of a queued bus event: the event's tenant and the envelope's id and name.
 * Only checked, never used to rebuild the detail: the envelope is sent (and signed) exactly as the
 * bus carried it, every field included.
 */
const detailSchema = z.object({
  tenant: z.object({ sellerId: z.number().int().positive(), environment: z.enum(['test', 'live']) }),
  envelope: z.object({ id: z.string().min(1), event: z.string().min(1) }),
});

/**
 * The bus detail inside one fan-out queue message, or null for a malformed one. The message body
 * is the whole EventBridge event, as an SQS rule target sends it (version, id, detail-type, source,
 * ..., detail).
 */
export function busDetailOf(body: string): BusDetail | null {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return null;
  }
  const detail =
    typeof event === 'object' && event !== null ? (event as { detail?: unknown }).detail : undefined;
  return detailSchema.safeParse(detail).success ? (detail as BusDetail) : null;
}
