import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { signatureHeader } from '#events/signing';
import { addDays, saoPauloDate } from '#shared/dates';
import { amountDueOn, NO_LATE_CHARGES } from '#shared/domain/payments/amount-due';
import { buildBoleto } from '#shared/domain/payments/boleto';
import type {
  ChargeRequest,
  ChargeResult,
  ChargeStatus,
  PaidWith,
  PixAuthorizationStatus,
  PixAutomaticChargeRequest,
  SandboxAction,
  SandboxCharge,
  SavedCardChargeRequest,
  TokenizeCardRequest,
  TokenizeResult,
} from '#shared/domain/payments/gateway';
import { notificationSecret } from '#shared/domain/payments/notification-secret';
import { buildPixPayload } from '#shared/domain/payments/pix';
import type {
  Clock,
  GatewayHealth,
  PaidDetails,
  PaymentProvider,
  ProviderPayment,
  SandboxCardBehaviour,
  SandboxOperations,
  SecretKey,
  SimulateOptions,
} from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { randomBase62 } from '#shared/ids';
import { sandboxChargeEntity } from '../dynamodb/entities/sandbox-charge';
import { keys } from '../dynamodb/keys';
import { ConditionFailedError, type Item, type Table, type TransactItem } from '../dynamodb/table';
import {
  activationOnPayment,
  chargePixAutomatic,
  consentAuthorization,
  pixAuthorizationStatus,
  setPixAuthorization,
} from './pix-automatic';
import { chargeRecord, replayed, writeOnce } from './records';
import {
  type OutcomeClass,
  savedCardOutcome,
  setSavedCardOutcome,
  tokenItem,
  tokenRecord,
  verifyCard,
} from './saved-cards';

export { SAVED_CARD_LATER_DECLINES, savedCardOutcome } from './saved-cards';

export const SANDBOX_PROVIDER = 'sandbox';
/**
 * Sandbox gateway ids are random 15-digit integers (the spec types gatewayPayId as a number):
 * the public status route takes one, so a sequence would let anyone walk every sale. 9 x 10^14
 * values keep collisions rare and every id below Number.MAX_SAFE_INTEGER; the conditional write
 * of the charge record makes a collision a retry, never a shared id.
 */
const SANDBOX_ID_MIN = 100_000_000_000_000;
const SANDBOX_ID_SPAN = 900_000_000_000_000;
/** Draws before a run of collisions (never expected) becomes an error. */
const SANDBOX_ID_ATTEMPTS = 5;

/** A uniform id in [10^14, 10^15) from the CSPRNG (randomInt draws at most 2^48 values at once). */
export function randomGatewayPayId(): number {
  const leading = randomInt(SANDBOX_ID_SPAN / 100_000_000_000_000);
  return SANDBOX_ID_MIN + leading * 100_000_000_000_000 + randomInt(100_000_000_000_000);
}
/** A fictitious bank code: sandbox boletos pass every check digit but belong to no bank. */
const SANDBOX_BANK = '000';
/** The Pix key the sandbox's BR Codes pay to (a random EVP key, owned by nobody). */
const SANDBOX_PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';
/**
 * Where a hybrid boleto's `cobv` payload points (a PSP's location URL, without its scheme): a
 * reserved `.invalid` host, as the boletos carry a fictitious bank, so no app ever fetches it.
 */
const SANDBOX_COBV_LOCATION = 'pix.sandbox.invalid/qr/v2/cobv/';

/** The sandbox's merchant name of a seller's BR Codes. */
const merchantNameOf = (request: ChargeRequest) => `SANDBOX SELLER ${request.tenant.sellerId}`;

export interface SandboxOptions {
  table: Table;
  clock: Clock;
  /** Signs the notifications the sandbox sends, as a provider signs its webhooks. */
  notificationKey: SecretKey;
  /** Signs the links of its boleto documents: a key of its own, so no other holder can mint one. */
  pdfKey: SecretKey;
  /** Where notifications go: POST /api/transactions/handle-webhook of this deployment. */
  publicBaseUrl: string;
  /** Draws gateway ids (tests force a collision); default randomGatewayPayId. */
  randomId?: () => number;
}

const TRANSITIONS: Record<SandboxAction, { from: ChargeStatus[]; to: ChargeStatus; type: string }> = {
  pay: { from: ['pending'], to: 'paid', type: 'charge.paid' },
  fail: { from: ['pending'], to: 'failed', type: 'charge.failed' },
  chargeback: { from: ['paid'], to: 'charged_back', type: 'charge.charged_back' },
  // The seller won the dispute: the charge is paid again (Asaas's AWAITING_CHARGEBACK_REVERSAL).
  chargeback_reversal: { from: ['charged_back'], to: 'paid', type: 'charge.chargeback_reversed' },
};

/**
 * The sandbox payment provider: realistic artifacts (valid BR Codes, boletos that pass every
 * FEBRABAN check, test cards), its own record of each charge, and signed notifications sent to
 * the service's webhook route, so sandbox payments walk the same path as real ones.
 */
export class SandboxGateway implements PaymentProvider, SandboxOperations {
  readonly provider = SANDBOX_PROVIDER;
  readonly ready = true;
  constructor(private readonly options: SandboxOptions) {}

  async health(): Promise<GatewayHealth> {
    return { status: 'healthy', provider: this.provider, latencyMs: 0 };
  }

  private base() {
    return this.options.publicBaseUrl.replace(/\/$/, '');
  }

  async createCharge(request: ChargeRequest): Promise<ChargeResult> {
    const fixed = request.gatewayPayId;
    if (fixed === undefined)
      return this.withFreshId((gatewayPayId) => this.createChargeWithId(request, gatewayPayId));
    try {
      return await this.createChargeWithId(request, fixed);
    } catch (error) {
      // Charged before under this reference (a retried attempt): its first answer, never a second charge.
      if (!(error instanceof ConditionFailedError)) throw error;
      const first = await this.lookupCharge(request.tenant, fixed);
      if (!first)
        throw new ConflictError('The charge reference is taken; nothing was charged', 'reference_taken');
      return first;
    }
  }

  /**
   * A random id for an attempt's reference, drawn without a read: a collision (1 in 9 x 10^14 per
   * pair) fails the charge record's conditional write, and the sale answers an error with nothing
   * charged, never another seller's charge.
   */
  async reserveReference(): Promise<number> {
    return (this.options.randomId ?? randomGatewayPayId)();
  }

  /** The sandbox's answer to the charge it holds under this reference, for this seller; null when none. */
  async lookupCharge(tenant: Tenant, gatewayPayId: number): Promise<ChargeResult | null> {
    const item = await this.options.table.get<Item>(keys.sandboxCharge(gatewayPayId), { consistent: true });
    if (!item || Number(item.sellerId) !== tenant.sellerId || !item.result) return null;
    return item.result as ChargeResult;
  }

  private async withFreshId(charge: (gatewayPayId: number) => Promise<ChargeResult>): Promise<ChargeResult> {
    const draw = this.options.randomId ?? randomGatewayPayId;
    for (let attempt = 1; ; attempt++) {
      try {
        return await charge(draw());
      } catch (error) {
        // The id is taken (the record's conditional write failed): draw another.
        if (!(error instanceof ConditionFailedError) || attempt >= SANDBOX_ID_ATTEMPTS) throw error;
      }
    }
  }

  private async createChargeWithId(request: ChargeRequest, gatewayPayId: number): Promise<ChargeResult> {
    const { table, clock } = this.options;
    const now = clock.now();
    const record = chargeRecord({ ...request, gatewayPayId, now });
    let result: ChargeResult;
    /** Written with the record, all or nothing: a card's token, a pix consent's authorization. */
    let companion: Item | undefined;
    if (request.method === 'pix') {
      const txid = randomBase62(25);
      const expiresAt = request.expiresAt ?? new Date(now.getTime() + 86_400_000).toISOString();
      const qrCode = buildPixPayload({
        key: SANDBOX_PIX_KEY,
        amountCentavos: request.amountCentavos,
        merchantName: merchantNameOf(request),
        merchantCity: 'SAO PAULO',
        txid,
      });
      result = { outcome: 'pending', gatewayPayId, pix: { qrCode, txid, expiresAt } };
      record.status = 'pending';
      const consent = consentAuthorization(request, gatewayPayId, now);
      if (consent) {
        result.pix = { qrCode, txid, expiresAt, authorizationId: consent.authorizationId };
        record.pixAuthorizationId = consent.authorizationId;
        companion = consent.item;
      }
    } else if (request.method === 'boleto') {
      const dueDate = request.dueDate ?? addDays(saoPauloDate(now), 3);
      const boleto = buildBoleto({
        bankCode: SANDBOX_BANK,
        amountCentavos: request.amountCentavos,
        dueDate,
        freeField: `0000${String(gatewayPayId).padStart(17, '0')}0000`,
      });
      const pdfUrl = `${this.base()}/api/sandbox/boletos/${gatewayPayId}/pdf?token=${await this.pdfToken(gatewayPayId)}`;
      // The boleto híbrido: a dynamic pix (`cobv`, its txid travels in the location) for the same
      // charge and due date; the one record below is paid once, by either.
      const pixQrCode = buildPixPayload({
        locationUrl: `${SANDBOX_COBV_LOCATION}${gatewayPayId}`,
        amountCentavos: request.amountCentavos,
        merchantName: merchantNameOf(request),
        merchantCity: 'SAO PAULO',
        txid: '***',
      });
      result = { outcome: 'pending', gatewayPayId, boleto: { ...boleto, dueDate, pdfUrl, pixQrCode } };
      record.status = 'pending';
      record.boleto = {
        barcode: boleto.barcode,
        formattedLine: boleto.formattedLine,
        dueDate,
        payerName: request.customer.name,
        beneficiary: `Sandbox seller ${request.tenant.sellerId}`,
        pixQrCode,
        ...(request.lateCharges ? { lateCharges: request.lateCharges } : {}),
      };
    } else {
      const card = request.card as NonNullable<ChargeRequest['card']>;
      const { summary, outcome } = verifyCard(card, now);
      if (outcome.outcome === 'approved') {
        result = {
          outcome: 'approved',
          gatewayPayId,
          card: summary,
          authorizationCode: randomBase62(6).toUpperCase(),
        };
        if (request.saveCard) {
          const saved = tokenRecord(request.tenant, card, summary, now);
          result.savedCard = saved.card;
          companion = saved.item;
        }
        record.status = 'paid';
      } else {
        result = {
          outcome: outcome.outcome,
          gatewayPayId,
          card: summary,
          failureCode: outcome.failureCode,
          failureReason: outcome.failureReason,
          gatewayFailureCode: `sandbox_${outcome.failureCode}`,
        };
        record.status = 'failed';
      }
      record.card = summary; // never the number
    }
    // The answer is kept with the record: a lookup under the reference answers it again.
    record.result = result;
    if (companion) {
      // The charge and its token (or authorization) are written together: none without the charge.
      await table.transact([
        { Put: { Item: record, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { Item: companion, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]);
    } else {
      await table.put(record, { ConditionExpression: 'attribute_not_exists(pk)' });
    }
    return result;
  }

  /**
   * Verifies the card as a charge would (test numbers, expiry, CVV) and, when that approves, keeps
   * the same token record an approved `saveCard` charge keeps; no charge record. An error card is
   * answered as a decline (nothing to retry: no money moved).
   */
  async tokenizeCard(request: TokenizeCardRequest): Promise<TokenizeResult> {
    const now = this.options.clock.now();
    const { summary, outcome } = verifyCard(request.card, now);
    if (outcome.outcome !== 'approved') {
      return {
        outcome: 'declined',
        failureCode: outcome.failureCode,
        failureReason: outcome.failureReason,
        gatewayFailureCode: `sandbox_${outcome.failureCode}`,
      };
    }
    const saved = tokenRecord(request.tenant, request.card, summary, now);
    await this.options.table.put(saved.item, { ConditionExpression: 'attribute_not_exists(pk)' });
    return { outcome: 'approved', savedCard: saved.card };
  }

  /**
   * Charges a saved card once per idempotency key: a key used before answers its first result (even
   * after the card was detached) and writes nothing; the key is written with the charge's record.
   */
  async chargeSavedCard(request: SavedCardChargeRequest): Promise<ChargeResult> {
    const { table, clock } = this.options;
    const fingerprint = `card:${request.token}:${request.amountCentavos}`;
    const first = await replayed(table, request.tenant, request.idempotencyKey, fingerprint);
    if (first) return first;
    const item = await tokenItem(table, request.tenant, request.token);
    const summary = { brand: String(item.brand), last4: String(item.last4) };
    const now = clock.now();
    const outcome = savedCardOutcome(
      {
        expiryMonth: Number(item.expiryMonth),
        expiryYear: Number(item.expiryYear),
        outcomeClass: item.outcomeClass as OutcomeClass,
      },
      saoPauloDate(now),
    );
    return this.withFreshId(async (gatewayPayId) => {
      const result: ChargeResult =
        outcome.outcome === 'approved'
          ? {
              outcome: 'approved',
              gatewayPayId,
              card: summary,
              authorizationCode: randomBase62(6).toUpperCase(),
            }
          : {
              outcome: outcome.outcome,
              gatewayPayId,
              card: summary,
              failureCode: outcome.failureCode,
              failureReason: outcome.failureReason,
              gatewayFailureCode: `sandbox_${outcome.failureCode}`,
            };
      const record: Item = {
        ...chargeRecord({ ...request, gatewayPayId, method: 'creditcard', now }),
        status: outcome.outcome === 'approved' ? 'paid' : 'failed',
        card: summary,
        savedCard: true,
      };
      return writeOnce(table, request, fingerprint, record, result);
    });
  }

  setSavedCardOutcome(tenant: Tenant, token: string, behaviour: SandboxCardBehaviour): Promise<void> {
    return setSavedCardOutcome(this.options.table, tenant, token, behaviour);
  }

  chargePixAutomatic(request: PixAutomaticChargeRequest): Promise<ChargeResult> {
    return chargePixAutomatic(this.options, request, (charge) => this.withFreshId(charge));
  }

  pixAuthorizationStatus(tenant: Tenant, authorizationId: string): Promise<PixAuthorizationStatus | null> {
    return pixAuthorizationStatus(this.options.table, tenant, authorizationId);
  }

  setPixAuthorization(
    tenant: Tenant,
    authorizationId: string,
    action: 'approve' | 'revoke',
  ): Promise<PixAuthorizationStatus> {
    return setPixAuthorization(this.options, tenant, authorizationId, action);
  }

  async detachSavedCard(tenant: Tenant, token: string): Promise<void> {
    try {
      await this.options.table.delete(keys.sandboxCardToken(token), {
        condition: 'sellerId = :s AND environment = :e',
        values: { ':s': tenant.sellerId, ':e': tenant.environment },
      });
    } catch (error) {
      // Already gone, or another seller's: there is nothing of this tenant's to forget.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }

  /**
   * Gateway ids are not secret (the status route and every notification carry them), so the
   * boleto link carries an HMAC of the id: only who received the link can read the payer's name.
   * The key is the PDF links' own: whoever holds the notification key cannot mint links with it.
   */
  async pdfToken(gatewayPayId: number): Promise<string> {
    return createHmac('sha256', await this.options.pdfKey.key())
      .update(`boleto-pdf:${gatewayPayId}`)
      .digest('hex')
      .slice(0, 32);
  }

  async validPdfToken(gatewayPayId: number, token: string | undefined): Promise<boolean> {
    const expected = Buffer.from(await this.pdfToken(gatewayPayId));
    const given = Buffer.from(token ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async charge(gatewayPayId: number): Promise<SandboxCharge | null> {
    const item = await this.options.table.get<Item>(keys.sandboxCharge(gatewayPayId), { consistent: true });
    if (!item) return null;
    return {
      gatewayPayId,
      sellerId: Number(item.sellerId),
      method: item.method as SandboxCharge['method'],
      amount: Number(item.amount),
      status: item.status as ChargeStatus,
      refunded: Number(item.refunded ?? 0),
      boleto: (item.boleto as SandboxCharge['boleto']) ?? null,
      ...(item.paidWith ? { paidWith: item.paidWith as PaidWith } : {}),
    };
  }

  async status(gatewayPayId: number): Promise<ChargeStatus | null> {
    return (await this.charge(gatewayPayId))?.status ?? null;
  }

  /**
   * The seller's sandbox charges created on `day`, read from its records' day index as a provider
   * lists its payments; a charge refunded in full lists as refunded, as a provider shows it.
   */
  async listPayments(tenant: Tenant, day: string): Promise<ProviderPayment[]> {
    const { byDay } = sandboxChargeEntity.patterns;
    const payments: ProviderPayment[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.options.table.query<Item>({
        IndexName: byDay.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': byDay.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.sandboxChargesOfDay(tenant.sellerId, day) },
        cursor,
      });
      for (const item of page.items) {
        const amount = Number(item.amount);
        const status = item.status as ChargeStatus;
        payments.push({
          providerPaymentId: String(item.gatewayPayId),
          gatewayPayId: Number(item.gatewayPayId),
          amountCentavos: amount,
          status: status === 'paid' && Number(item.refunded ?? 0) >= amount ? 'refunded' : status,
        });
      }
      cursor = page.cursor;
    } while (cursor);
    return payments;
  }

  /**
   * Moves the sandbox's charge between states. Paying a charge that carried a Pix Automático consent
   * activates its pending authorization in the same transaction.
   */
  private async move(
    gatewayPayId: number,
    from: ChargeStatus[],
    to: ChargeStatus,
    paid?: { amount: number; paidWith?: PaidWith },
  ): Promise<void> {
    const { table, clock } = this.options;
    const update = {
      Key: keys.sandboxCharge(gatewayPayId),
      UpdateExpression: paid
        ? `SET #s = :to, paidAmount = :paid${paid.paidWith ? ', paidWith = :with' : ''}`
        : 'SET #s = :to',
      ConditionExpression: `attribute_exists(pk) AND #s IN (${from.map((_, i) => `:f${i}`).join(', ')})`,
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':to': to,
        ...(paid ? { ':paid': paid.amount } : {}),
        ...(paid?.paidWith ? { ':with': paid.paidWith } : {}),
        ...Object.fromEntries(from.map((f, i) => [`:f${i}`, f])),
      },
    };
    for (let attempt = 1; ; attempt++) {
      const also: TransactItem[] =
        to === 'paid' ? await activationOnPayment(table, gatewayPayId, clock.now()) : [];
      try {
        if (also.length > 0) await table.transact([{ Update: update }, ...also]);
        else await table.update(update);
        return;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        // Only the authorization moved meanwhile (approved or revoked by the bank): decide again.
        if (!error.failedIndexes.includes(0) && attempt < 3) continue;
        if (!error.failedIndexes.includes(0)) throw error;
        const current = await this.charge(gatewayPayId);
        if (!current) throw new NotFoundError('Sandbox charge not found');
        throw new ConflictError(
          `The sandbox charge is ${current.status}; it cannot become ${to}`,
          'sandbox_invalid_state',
        );
      }
    }
  }

  /**
   * What a pay clears and how: the amount the bank cleared when given, else what the charge costs
   * that day (a boleto's fine, interest or discount), kept with the record as a provider keeps it.
   */
  private async paymentOf(
    gatewayPayId: number,
    options: SimulateOptions,
    day: string,
  ): Promise<{ amount: number; paidWith?: PaidWith }> {
    const paidWith = await this.paidWithOf(gatewayPayId, options.paidWith);
    const charge = (await this.charge(gatewayPayId)) as SandboxCharge;
    const amount = options.paidAmount ?? amountPaidOn(charge, day);
    return { amount, ...(paidWith ? { paidWith } : {}) };
  }

  /** What the sandbox cleared for a paid pix or boleto, and how (PaymentProvider.paidDetails). */
  async paidDetails(gatewayPayId: number): Promise<PaidDetails | null> {
    const item = await this.options.table.get<Item>(keys.sandboxCharge(gatewayPayId), { consistent: true });
    if (!item || item.method === 'creditcard' || item.paidAmount === undefined) return null;
    return {
      amountCentavos: Number(item.paidAmount),
      ...(item.paidWith ? { paidWith: item.paidWith as PaidWith } : {}),
    };
  }

  /**
   * How a pay is made: a pix charge by pix, a boleto as a boleto unless the payer used its pix (a
   * boleto without one cannot be paid by pix); a card has no such choice.
   */
  private async paidWithOf(gatewayPayId: number, asked: PaidWith | undefined): Promise<PaidWith | undefined> {
    const charge = await this.charge(gatewayPayId);
    if (!charge) throw new NotFoundError('Sandbox charge not found');
    if (charge.method === 'creditcard') {
      if (asked) throw new ValidationError(['paidWith applies to a pix or boleto charge only']);
      return undefined;
    }
    if (charge.method === 'pix') {
      if (asked === 'boleto') throw new ValidationError(['paidWith boleto applies to a boleto only']);
      return 'pix';
    }
    if (asked === 'pix' && !charge.boleto?.pixQrCode)
      throw new ValidationError(['paidWith pix needs a boleto that carries a pix QR code']);
    return asked ?? 'boleto';
  }

  async cancel(gatewayPayId: number): Promise<void> {
    await this.move(gatewayPayId, ['pending'], 'canceled');
  }

  async refund(
    gatewayPayId: number,
    amountCentavos: number,
    reference?: string,
  ): Promise<{ refundId: string }> {
    const refundId = reference ?? `re_${randomBase62(20)}`;
    try {
      // `refundable` counts down, so the bound is a plain comparison (conditions have no arithmetic);
      // a refund's reference is kept, and one already made under it is not made again.
      await this.options.table.update({
        Key: keys.sandboxCharge(gatewayPayId),
        UpdateExpression:
          'SET refunded = refunded + :a, refundable = refundable - :a, refundRefs = list_append(if_not_exists(refundRefs, :none), :ref)',
        ConditionExpression:
          '#s = :paid AND refundable >= :a AND (attribute_not_exists(refundRefs) OR NOT contains(refundRefs, :id))',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':a': amountCentavos,
          ':paid': 'paid',
          ':none': [],
          ':ref': [refundId],
          ':id': refundId,
        },
      });
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      if (reference && (await this.refundHeld(gatewayPayId, reference))) return { refundId };
      throw new ConflictError(
        'The sandbox charge cannot be refunded by that amount',
        'sandbox_refund_refused',
      );
    }
    return { refundId };
  }

  async refundHeld(gatewayPayId: number, reference: string): Promise<boolean> {
    const item = await this.options.table.get<Item>(keys.sandboxCharge(gatewayPayId), { consistent: true });
    return Array.isArray(item?.refundRefs) && (item.refundRefs as string[]).includes(reference);
  }

  /**
   * A test helper's pay/fail/chargeback/chargeback-reversal: moves the sandbox's own charge, then notifies the service
   * exactly as a provider would: a signed POST to the webhook route. A canceled charge cannot be paid,
   * nor a paid one paid again: a hybrid boleto paid by its pix refuses its boleto, and the other way round.
   */
  async simulate(
    gatewayPayId: number,
    action: SandboxAction,
    failureCode = 'payment_failed',
    options: SimulateOptions = {},
  ): Promise<void> {
    const rule = TRANSITIONS[action];
    const now = this.options.clock.now();
    const paid =
      action === 'pay' ? await this.paymentOf(gatewayPayId, options, saoPauloDate(now)) : undefined;
    await this.move(gatewayPayId, rule.from, rule.to, paid);
    if (options.notify === false) return;
    const charge = (await this.charge(gatewayPayId)) as SandboxCharge;
    const body = JSON.stringify({
      id: `ntf_${randomBase62(24)}`,
      provider: this.provider,
      type: rule.type,
      gatewayPayId,
      amount: paid?.amount ?? charge.amount,
      occurredAt: now.toISOString(),
      ...(paid?.paidWith ? { paidWith: paid.paidWith } : {}),
      ...(action === 'fail' ? { failureCode, failureReason: 'The payment was not completed' } : {}),
    });
    const timestamp = Math.floor(now.getTime() / 1000);
    const res = await fetch(`${this.base()}/api/transactions/handle-webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature': signatureHeader(
          [await notificationSecret(this.options.notificationKey)],
          timestamp,
          body,
        ),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok)
      throw new Error(`the service refused the sandbox notification with ${res.status}: ${await res.text()}`);
  }
}

/** What the payer's bank clears for a charge paid on `day`: a boleto's amount due that day (its fine, interest or discount). */
function amountPaidOn(charge: SandboxCharge, day: string): number {
  if (!charge.boleto) return charge.amount;
  return amountDueOn(charge.amount, charge.boleto.dueDate, charge.boleto.lateCharges ?? NO_LATE_CHARGES, day)
    .amountDue;
}
