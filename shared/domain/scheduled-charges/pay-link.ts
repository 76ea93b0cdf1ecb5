import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { buyerFailure } from '#shared/domain/payments/cards';
import { PROVIDER_NOT_CONFIGURED } from '#shared/domain/payments/gateway';
import { providerReady } from '#shared/domain/payments/provider-ready';
import { boletoPixView, qrCodeDataUrl } from '#shared/domain/payments/qr-image';
import { createTransactionSchema } from '#shared/domain/transactions/create';
import { PENDING } from '#shared/domain/transactions/transaction';
import { ConflictError, isConflict, NotFoundError, ServiceUnavailableError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import { type Cycle, isPayToken, type ScheduledCharge } from './charge';
import type { ScheduledChargeDeps } from './deps';
import { issueNow } from './issue';
import { PAY_LINK_NOT_FOUND } from './not-found';
import { inTrial, isOpen, needsIssuance } from './state';

/**
 * The public pay link of a cycle (`/cobranca/{payToken}`): what its page shows, and the card form's
 * payment (pay-link-card.ts). The token is the only credential: the view shows nothing of the
 * customer beyond the name, and never another cycle.
 */

export { PAY_LINK_NOT_FOUND };

/** What the card form does on this link: pay the cycle, keep the card for after a trial, or nothing. */
export type CardMode = 'pay' | 'save' | null;

/**
 * The card form is offered for a cycle still payable (open, or failed after its retries) of a charge
 * that takes cards: during a trial, cycle 1 keeps the card without a charge; a one-time charge, a
 * series with no saved card (cycle 1, or after the seller cleared it) and a cycle whose silent
 * charge already failed are paid on the link. A card charge in flight, a pause or a cancellation
 * closes the form.
 */
export function cardModeOf(charge: ScheduledCharge, cycle: Cycle, now: Date): CardMode {
  if (!charge.methods.includes('card') || charge.canceledAt !== null || charge.pausedAt !== null) return null;
  if (cycle.claim !== null) return null;
  if (inTrial(charge, now) && cycle.number === 1) return charge.paymentMethod ? null : 'save';
  if (!isOpen(cycle) && cycle.status !== 'failed') return null;
  if (charge.type === 'one_time' || charge.paymentMethod === null) return 'pay';
  return cycle.status === 'failed' || cycle.attemptCount > 0 ? 'pay' : null;
}

/** The link's state as the page words it. */
export type LinkState = 'open' | 'paid' | 'failed' | 'canceled' | 'paused';

const stateOf = (charge: ScheduledCharge, cycle: Cycle): LinkState => {
  if (cycle.status === 'paid') return 'paid';
  if (cycle.status === 'canceled' || charge.canceledAt !== null) return 'canceled';
  if (charge.pausedAt !== null) return 'paused';
  return cycle.status === 'failed' ? 'failed' : 'open';
};

/** A charge and cycle by pay token; a malformed token names nothing. */
export async function findByToken(deps: Pick<ScheduledChargeDeps, 'scheduledCharges'>, payToken: string) {
  const found = isPayToken(payToken) ? await deps.scheduledCharges.findByPayToken(payToken) : null;
  if (!found) throw new NotFoundError(PAY_LINK_NOT_FOUND);
  return found;
}

/** The pix and boleto of a cycle as they can still be paid (pending), with the QR code's image. */
async function issuedOf(
  deps: Pick<ScheduledChargeDeps, 'transactions'>,
  charge: ScheduledCharge,
  cycle: Cycle,
) {
  const read = (id: number | null) =>
    id === null ? Promise.resolve(null) : deps.transactions.get(charge.tenant, id);
  const [pix, boleto] = await Promise.all([read(cycle.issued.pix), read(cycle.issued.boleto)]);
  const pending = <T extends { status: string } | null>(t: T) =>
    t && PENDING.includes(t.status as never) ? t : null;
  const p = pending(pix);
  const b = pending(boleto);
  return {
    pix: p?.pix
      ? { qrCode: p.pix.qrCode, qrCodeImage: await qrCodeDataUrl(p.pix.qrCode), expiresAt: p.pix.expiresAt }
      : null,
    boleto: b?.boleto
      ? {
          digitableLine: b.boleto.digitableLine,
          formattedLine: b.boleto.formattedLine,
          dueDate: b.boleto.dueDate,
          pdfUrl: b.boleto.pdfUrl,
          ...(await boletoPixView(b.boleto.pixQrCode)),
        }
      : null,
  };
}

/**
 * The cycle's pix and boleto are issued ahead of its due date; a buyer who opens the link before
 * that gets them issued now. A concurrent write (the due job issuing them) is read back instead;
 * a live charge without a configured provider shows the link without them.
 */
async function issuedNowIfMissing(deps: ScheduledChargeDeps, charge: ScheduledCharge, cycle: Cycle) {
  if (!isOpen(cycle) || charge.pausedAt !== null || !needsIssuance(charge, cycle)) return { charge, cycle };
  try {
    const next = await issueNow(deps, charge, cycle.number);
    return { charge: next, cycle: next.cycles.find((c) => c.number === cycle.number) as Cycle };
  } catch (error) {
    if (error instanceof ServiceUnavailableError) return { charge, cycle };
    if (!isConflict(error, 'changed')) throw error;
    return findByToken(deps, cycle.payToken);
  }
}

/**
 * GET /api/public/cobranca/{payToken} (and the page): the cycle as its customer may see it, with
 * the seller's business profile (the name, logo and colour the page shows).
 */
export async function payLinkView(deps: ScheduledChargeDeps & Pick<Deps, 'team'>, payToken: string) {
  const read = await findByToken(deps, payToken);
  const { charge, cycle } = await issuedNowIfMissing(deps, read.charge, read.cycle);
  const now = deps.clock.now();
  const state = stateOf(charge, cycle);
  const [issued, [profile]] = await Promise.all([
    state === 'open' || state === 'failed' ? issuedOf(deps, charge, cycle) : { pix: null, boleto: null },
    deps.team.profiles([charge.tenant.sellerId]),
  ]);
  const card = cardModeOf(charge, cycle, now);
  return {
    payToken: cycle.payToken,
    state,
    status: cycle.status,
    environment: charge.tenant.environment,
    type: charge.type,
    cycleNumber: cycle.number,
    amount: centavosToReais(cycle.amount),
    dueDate: cycle.dueDate,
    description: charge.description,
    product: charge.product ? { name: charge.product.name } : null,
    customer: { name: charge.customer.name },
    recurrence: charge.recurrence
      ? {
          interval: charge.recurrence.interval,
          intervalCount: charge.recurrence.intervalCount,
          endAfterCycles: charge.recurrence.endAfterCycles,
          endDate: charge.recurrence.endDate,
        }
      : null,
    methods: charge.methods,
    trialEndsOn: inTrial(charge, now) ? charge.trialEndsOn : null,
    paidAt: cycle.paidAt,
    pix: issued.pix,
    boleto: issued.boleto,
    cardMode: card,
    savedCard: charge.paymentMethod
      ? { brand: charge.paymentMethod.cardBrand, last4: charge.paymentMethod.cardLast4 }
      : null,
    seller: {
      name: profile?.name ?? '',
      logoUrl: profile?.logoUrl ?? null,
      brandColor: profile?.brandColor ?? null,
    },
  };
}
export type PayLinkView = Awaited<ReturnType<typeof payLinkView>>;

/** The card form's body: the card only (the charge already names its customer). */
export const payLinkCardSchema = z.object({ card: createTransactionSchema.shape.card.unwrap() }).strict();

/** A refused card as the link's page says it: the exact reason stays with the seller. */
export const failureOf = (code: string | null) => buyerFailure(code);

/** 409s of the card form, in Portuguese for the page that shows them. */
export function refusedMode(charge: ScheduledCharge, cycle: Cycle): ConflictError {
  const state = stateOf(charge, cycle);
  const message =
    state === 'paid'
      ? 'Esta cobrança já foi paga.'
      : state === 'canceled'
        ? 'Esta cobrança foi cancelada.'
        : state === 'paused'
          ? 'Esta cobrança está pausada pelo vendedor.'
          : cycle.claim
            ? 'Um pagamento com cartão desta cobrança está em andamento. Tente de novo em instantes.'
            : 'Esta cobrança não aceita pagamento com cartão por este link.';
  return new ConflictError(message, 'pay_link_not_payable');
}

export const providerOf = async (deps: Pick<ScheduledChargeDeps, 'payments'>, charge: ScheduledCharge) => {
  const provider = deps.payments.forEnvironment(charge.tenant.environment);
  if (!(await providerReady(provider, charge.tenant)))
    throw new ServiceUnavailableError(PROVIDER_NOT_CONFIGURED, 'provider_not_configured');
  return provider;
};
