import * as z from 'zod';
import { PAYMENT_METHODS_IN_EVENTS } from '#events/catalog';
import type { Deps } from '#shared/domain/deps';
import type { BusDetail } from '#shared/domain/events/events';
import { ConflictError } from '#shared/errors';
import { reaisToCentavos } from '#shared/money';
import { paymentReceipt } from './templates';

/**
 * How long a claimed receipt is held before another delivery of the same event may try again:
 * three times the function's 30 s timeout, so a running attempt is never overtaken, and short
 * enough that Lambda's second asynchronous retry (about three minutes after the first failure)
 * finds the lease of a crashed attempt expired.
 */
export const RECEIPT_LEASE_SECONDS = 90;

export type NotificationDeps = Pick<Deps, 'mailer' | 'mailLog' | 'clock' | 'team'>;

export type NotificationOutcome =
  /** The message went out (`recorded` false: the marker could not be set to sent; its lease guards). */
  | { outcome: 'sent'; recorded: boolean }
  /** This event's message was already sent, or is being sent by another delivery. */
  | { outcome: 'duplicate' }
  /** Nothing to send: the event names no recipient, or no notification listens to it. */
  | { outcome: 'skipped'; reason: string }
  /** The payload does not carry what the message needs: retrying cannot help. */
  | { outcome: 'malformed'; issues: string };

/** What a receipt reads from `transaction.payment.succeeded` (the catalog's payload plus the resource fields). */
const paymentSucceededSchema = z.object({
  id: z.number().int(),
  productName: z.string(),
  value: z.number(),
  paymentMethod: z.enum(PAYMENT_METHODS_IN_EVENTS),
  installments: z.number().int().positive().nullish(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullish(),
  customer: z.object({ name: z.string(), email: z.string() }),
  paidAt: z.iso.datetime({ offset: true }),
});

/**
 * Sends the buyer a receipt when a payment is confirmed, once per event id: the marker is claimed
 * before sending (a second delivery of the event finds it and sends nothing), released when the
 * send fails (the event's retry sends), and marked sent afterwards. The trade-off is in
 * docs/decisions.md ("E-mail"): a crash between the send and the marker can, after the lease,
 * send a second copy; nothing else can.
 */
export async function sendPaymentReceipt(
  deps: NotificationDeps,
  detail: BusDetail,
): Promise<NotificationOutcome> {
  const parsed = paymentSucceededSchema.safeParse(detail.envelope.data);
  if (!parsed.success) return { outcome: 'malformed', issues: z.prettifyError(parsed.error) };
  const data = parsed.data;
  const amount = reaisToCentavos(data.value);
  if (amount === null) return { outcome: 'malformed', issues: 'value is not an amount in Reais' };
  const to = data.customer.email.trim();
  if (!to) return { outcome: 'skipped', reason: 'no_recipient' };

  const key = `receipt#${detail.envelope.id}`;
  try {
    await deps.mailLog.claim(key, deps.clock.now(), RECEIPT_LEASE_SECONDS);
  } catch (error) {
    if (error instanceof ConflictError) return { outcome: 'duplicate' };
    throw error;
  }
  const [seller] = await deps.team.profiles([detail.tenant.sellerId]);
  const rendered = paymentReceipt({
    seller: seller ? { name: seller.name, logoUrl: seller.logoUrl, brandColor: seller.brandColor } : null,
    transactionId: data.id,
    productName: data.productName,
    amount,
    method: data.paymentMethod,
    card: data.card ?? null,
    installments: data.installments ?? null,
    paidAt: new Date(data.paidAt),
    buyerName: data.customer.name,
    sandbox: detail.tenant.environment === 'test',
  });
  try {
    await deps.mailer.send({ to, ...rendered, tenant: detail.tenant, kind: 'receipt' });
  } catch (error) {
    // If the release fails too, the lease expires and a later retry sends.
    await deps.mailLog.release(key).catch(() => undefined);
    throw error;
  }
  // The mail is out: failing now would make the event's retry send it again.
  const recorded = await deps.mailLog.markSent(key, deps.clock.now()).then(
    () => true,
    () => false,
  );
  return { outcome: 'sent', recorded };
}

type Consumer = (deps: NotificationDeps, detail: BusDetail) => Promise<NotificationOutcome>;

/** Which service events send mail, and how. The bus rule (CDK and local) selects exactly these. */
export const NOTIFICATIONS: Readonly<Record<string, Consumer>> = {
  'transaction.payment.succeeded': sendPaymentReceipt,
};

export const NOTIFIED_EVENTS: readonly string[] = Object.keys(NOTIFICATIONS);

/** The notifications function's use case: the consumer of the event's type, if any. */
export async function notify(
  deps: NotificationDeps,
  eventName: string,
  detail: BusDetail,
): Promise<NotificationOutcome> {
  const consume = Object.hasOwn(NOTIFICATIONS, eventName) ? NOTIFICATIONS[eventName] : undefined;
  if (!consume) return { outcome: 'skipped', reason: 'not_notified' };
  return consume(deps, detail);
}
