import type { ReminderChannel, ReminderSchedule } from '#shared/domain/reminders/schedule';
import type { Tenant } from '#shared/domain/tenant';

/** A seller's WhatsApp Business Cloud API sender: its access token only encrypted. */
export interface WhatsappChannelSettings {
  enabled: boolean;
  /** The WhatsApp Business phone number id messages are sent from. */
  phoneNumberId: string;
  /** The access token, sealed by the provider keys' cipher (context: seller and channel). */
  encryptedAccessToken: string;
  accessTokenLast4: string;
  /** The approved templates' language (`pt_BR`). */
  language: string;
}

/** A seller's SMS sender on AWS End User Messaging (the platform's account). */
export interface SmsChannelSettings {
  enabled: boolean;
  /** The origination identity (a phone number, its ARN, or a pool) the messages are sent from. */
  originationIdentity: string;
}

export interface SellerReminderSettings {
  schedule: ReminderSchedule | null;
  whatsapp: WhatsappChannelSettings | null;
  sms: SmsChannelSettings | null;
}

export interface CustomerReminderSettings {
  schedule: ReminderSchedule | null;
  /** The channels the customer stopped through an opt-out link. */
  optedOut: ReminderChannel[];
  /** The customer's opt-out token of each channel (made with the first reminder on it). */
  optOutTokens: Partial<Record<ReminderChannel, string>>;
}

/** What an opt-out token names. */
export interface OptOutRef {
  tenant: Tenant;
  customerId: number;
  channel: ReminderChannel;
}

/** What a reminder reads of its seller and customer, in one round trip. */
export interface ReminderContext {
  /** The seller's business name (its profile). */
  businessName: string;
  /** The profile's https logo and `#rrggbb` colour, each null when not set: the e-mails show them. */
  businessLogoUrl: string | null;
  businessColor: string | null;
  seller: SellerReminderSettings | null;
  customer: CustomerReminderSettings | null;
}

export interface ReminderSettingsRepository {
  read(tenant: Tenant, customerId?: number): Promise<ReminderContext>;
  putSellerSchedule(tenant: Tenant, schedule: ReminderSchedule | null, now: string): Promise<void>;
  putChannel(
    tenant: Tenant,
    channel: 'whatsapp' | 'sms',
    settings: WhatsappChannelSettings | SmsChannelSettings | null,
    now: string,
  ): Promise<void>;
  putCustomerSchedule(
    tenant: Tenant,
    customerId: number,
    schedule: ReminderSchedule | null,
    now: string,
  ): Promise<void>;
  /**
   * The customer's opt-out token of `channel`: the stored one, else `fresh`, stored with its
   * pointer (a concurrent first send that stored another wins; its token is answered).
   */
  optOutToken(
    tenant: Tenant,
    customerId: number,
    channel: ReminderChannel,
    fresh: string,
    now: string,
  ): Promise<string>;
  findOptOut(token: string): Promise<OptOutRef | null>;
  /** Records the opt-out; idempotent. */
  optOut(ref: OptOutRef, now: string): Promise<void>;
}

export interface WhatsappCredentials {
  phoneNumberId: string;
  accessToken: string;
}

export interface SmsCredentials {
  originationIdentity: string;
}

/** A reminder on WhatsApp (an approved template with named parameters) or SMS (plain text). */
export type ChannelMessage = {
  /** E.164 (`+5511987654321`). */
  to: string;
  /** What the customer reads (kept as is in the local mailbox). */
  text: string;
  tenant: Tenant;
  kind: string;
} & (
  | {
      channel: 'whatsapp';
      template: { name: string; language: string; parameters: { name: string; value: string }[] };
      credentials: WhatsappCredentials;
    }
  | { channel: 'sms'; credentials: SmsCredentials }
);

/** WhatsApp and SMS, beside the Mailer: a failure throws with the provider's reason. */
export interface Messenger {
  send(message: ChannelMessage): Promise<void>;
}
