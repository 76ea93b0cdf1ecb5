import { saoPauloDate } from '#shared/dates';
import type { Deps } from '#shared/domain/deps';
import {
  type AmountDue,
  amountDueOn,
  type LateChargeTerms,
  NO_LATE_CHARGES,
} from '#shared/domain/payments/amount-due';
import type { ChannelMessage, ReminderContext } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { type ReminderValues, renderEmail, renderSms, renderText, whatsappParameters } from './render';
import { type ReminderChannel, type ReminderStep, resolveSchedule } from './schedule';

/**
 * Sending one step of a schedule to one customer for one charge, on each of the step's channels:
 * the amount is what is due on the day it goes out (`amountDueOn`), each message carries the
 * link that stops its channel, a channel the customer stopped or the seller has not enabled is
 * skipped, and each channel's outcome (sent, failed with its reason, skipped) is answered for the
 * charge's timeline. A channel's failure never stops the others.
 */

export type ReminderDeps = Pick<
  Deps,
  'reminderSettings' | 'mailer' | 'messenger' | 'cipher' | 'clock' | 'ids' | 'publicBaseUrl' | 'reporter'
>;

/** Who a reminder goes to: the seller's profile of the customer. */
export interface ReminderRecipient {
  customerId: number;
  name: string;
  /** The resolved billing e-mail. */
  email: string;
  /** The profile's phone: 10 or 11 digits (area code and number). */
  phone: string;
}

/** What a reminder says of its charge. */
export interface ReminderCharge {
  /** What it is for: the product's name or the charge's description. */
  itemName: string;
  /** Centavos: the face value. */
  amount: number;
  dueDate: string;
  terms: LateChargeTerms | null;
  payUrl: string;
  boletoLine: string | null;
  pixCopyPaste: string | null;
}

export interface Delivery {
  channel: ReminderChannel;
  status: 'sent' | 'failed' | 'skipped';
  /** The address or phone it went to (null when skipped before one was chosen). */
  to: string | null;
  /** Why it failed or was skipped (`opted_out`, `channel_disabled`, `no_mobile_phone`, the provider's reason). */
  reason: string | null;
}

export const OPT_OUT_PATH = '/descadastro';

/** A Brazilian mobile number (area code, then 9 and eight digits) in E.164; null for a landline or none. */
export function mobileE164(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  return /^[1-9][0-9]9[0-9]{8}$/.test(digits) ? `+55${digits}` : null;
}

/** The amount due on `day` (Sao Paulo) for the charge: face value with its fine, interest or discount. */
export const amountDueFor = (charge: ReminderCharge, day: string): AmountDue =>
  amountDueOn(charge.amount, charge.dueDate, charge.terms ?? NO_LATE_CHARGES, day);

/** The values a step's template is filled with. */
export function reminderValues(
  tenant: Tenant,
  business: Pick<ReminderContext, 'businessName' | 'businessLogoUrl' | 'businessColor'>,
  recipient: Pick<ReminderRecipient, 'name'>,
  charge: ReminderCharge,
  day: string,
  optOutUrl: string,
): ReminderValues {
  return {
    businessName: business.businessName,
    businessLogoUrl: business.businessLogoUrl,
    businessColor: business.businessColor,
    customerName: recipient.name,
    itemName: charge.itemName,
    amountDue: amountDueFor(charge, day).amountDue,
    dueDate: charge.dueDate,
    payUrl: charge.payUrl,
    boletoLine: charge.boletoLine,
    pixCopyPaste: charge.pixCopyPaste,
    optOutUrl,
    sandbox: tenant.environment === 'test',
  };
}

/** The step of the customer's schedule (its override, the seller's, the default) at `offsetDays`. */
export function stepAt(context: ReminderContext, offsetDays: number): ReminderStep | null {
  const schedule = resolveSchedule(context.seller?.schedule ?? null, context.customer?.schedule ?? null);
  return schedule.steps.find((s) => s.offsetDays === offsetDays) ?? null;
}

/** A provider's reason, short and without anything but its message. */
const reasonOf = (error: unknown) =>
  (error instanceof Error
    ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`
    : 'unknown error'
  ).slice(0, 300);

async function optOutUrl(deps: ReminderDeps, tenant: Tenant, customerId: number, channel: ReminderChannel) {
  const token = await deps.reminderSettings.optOutToken(
    tenant,
    customerId,
    channel,
    deps.ids.prefixed('optout', 32),
    deps.clock.now().toISOString(),
  );
  return `${deps.publicBaseUrl}${OPT_OUT_PATH}/${token}`;
}

/** The channel message of a step, its credentials opened (never logged, never kept). */
async function channelMessage(
  deps: ReminderDeps,
  context: ReminderContext,
  tenant: Tenant,
  channel: 'whatsapp' | 'sms',
  step: ReminderStep,
  values: ReminderValues,
  to: string,
  kind: string,
): Promise<ChannelMessage> {
  if (channel === 'sms') {
    const sms = context.seller?.sms;
    return {
      channel,
      to,
      text: renderSms(step, values),
      tenant,
      kind,
      credentials: { originationIdentity: sms?.originationIdentity ?? '' },
    };
  }
  const whatsapp = context.seller?.whatsapp;
  const accessToken = whatsapp
    ? await deps.cipher.decrypt(whatsapp.encryptedAccessToken, channelKeyContext(tenant.sellerId, 'whatsapp'))
    : '';
  return {
    channel,
    to,
    text: renderText(step, values),
    tenant,
    kind,
    template: {
      name: step.whatsappTemplate ?? '',
      language: whatsapp?.language ?? 'pt_BR',
      parameters: whatsappParameters(step, values),
    },
    credentials: { phoneNumberId: whatsapp?.phoneNumberId ?? '', accessToken },
  };
}

/** A channel's credentials' encryption context: a ciphertext copied to another seller's item does not open. */
export const channelKeyContext = (sellerId: number, channel: 'whatsapp') => ({
  sellerId: String(sellerId),
  channel,
});

const enabled = (context: ReminderContext, channel: ReminderChannel) =>
  channel === 'email' || context.seller?.[channel]?.enabled === true;

/** Sends `step` on each of its channels; answers each channel's outcome. */
export async function deliverStep(
  deps: ReminderDeps,
  input: {
    tenant: Tenant;
    kind: string;
    context: ReminderContext;
    recipient: ReminderRecipient;
    step: ReminderStep;
    charge: ReminderCharge;
  },
): Promise<Delivery[]> {
  const { tenant, kind, context, recipient, step, charge } = input;
  const day = saoPauloDate(deps.clock.now());
  const out: Delivery[] = [];
  for (const channel of step.channels) {
    if (context.customer?.optedOut.includes(channel)) {
      out.push({ channel, status: 'skipped', to: null, reason: 'opted_out' });
      continue;
    }
    if (!enabled(context, channel)) {
      out.push({ channel, status: 'skipped', to: null, reason: 'channel_disabled' });
      continue;
    }
    const to = channel === 'email' ? recipient.email : mobileE164(recipient.phone);
    if (!to) {
      out.push({ channel, status: 'failed', to: null, reason: 'no_mobile_phone' });
      continue;
    }
    try {
      const url = await optOutUrl(deps, tenant, recipient.customerId, channel);
      const values = reminderValues(tenant, context, recipient, charge, day, url);
      if (channel === 'email') await deps.mailer.send({ to, ...renderEmail(step, values), tenant, kind });
      else
        await deps.messenger.send(
          await channelMessage(deps, context, tenant, channel, step, values, to, kind),
        );
      out.push({ channel, status: 'sent', to, reason: null });
    } catch (error) {
      deps.reporter.error('could not send a reminder', error, { channel, kind });
      out.push({ channel, status: 'failed', to, reason: reasonOf(error) });
    }
  }
  return out;
}
