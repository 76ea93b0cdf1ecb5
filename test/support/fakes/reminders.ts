import type {
  ChannelMessage,
  CustomerReminderSettings,
  Messenger,
  OptOutRef,
  ReminderSettingsRepository,
  SellerReminderSettings,
} from '#shared/domain/ports';
import type { SecretCipher } from '#shared/domain/ports/provider-connections';
import type { Tenant } from '#shared/domain/tenant';

const tenantKey = (t: Tenant) => `${t.sellerId}#${t.environment}`;

/** Reminder settings in memory, with the DynamoDB adapter's semantics (one token per customer and channel). */
export class FakeReminderSettingsRepository implements ReminderSettingsRepository {
  readonly sellers = new Map<string, SellerReminderSettings>();
  readonly customers = new Map<string, CustomerReminderSettings>();
  readonly tokens = new Map<string, OptOutRef>();
  businessName = 'Loja Exemplo';
  businessLogoUrl: string | null = null;
  businessColor: string | null = null;

  private customer(t: Tenant, id: number): CustomerReminderSettings {
    const key = `${tenantKey(t)}#${id}`;
    let c = this.customers.get(key);
    if (!c) {
      c = { schedule: null, optedOut: [], optOutTokens: {} };
      this.customers.set(key, c);
    }
    return c;
  }

  private seller(t: Tenant): SellerReminderSettings {
    let s = this.sellers.get(tenantKey(t));
    if (!s) {
      s = { schedule: null, whatsapp: null, sms: null };
      this.sellers.set(tenantKey(t), s);
    }
    return s;
  }

  async read(tenant: Tenant, customerId?: number) {
    const seller = this.sellers.get(tenantKey(tenant)) ?? null;
    const customer =
      customerId === undefined ? null : (this.customers.get(`${tenantKey(tenant)}#${customerId}`) ?? null);
    return {
      businessName: this.businessName,
      businessLogoUrl: this.businessLogoUrl,
      businessColor: this.businessColor,
      seller: seller ? structuredClone(seller) : null,
      customer: customer ? structuredClone(customer) : null,
    };
  }
  async putSellerSchedule(tenant: Tenant, schedule: SellerReminderSettings['schedule']) {
    this.seller(tenant).schedule = schedule;
  }
  async putChannel(tenant: Tenant, channel: 'whatsapp' | 'sms', settings: unknown) {
    Object.assign(this.seller(tenant), { [channel]: settings });
  }
  async putCustomerSchedule(tenant: Tenant, id: number, schedule: CustomerReminderSettings['schedule']) {
    this.customer(tenant, id).schedule = schedule;
  }
  async optOutToken(tenant: Tenant, customerId: number, channel: OptOutRef['channel'], fresh: string) {
    const c = this.customer(tenant, customerId);
    const stored = c.optOutTokens[channel];
    if (stored) return stored;
    c.optOutTokens[channel] = fresh;
    this.tokens.set(fresh, { tenant, customerId, channel });
    return fresh;
  }
  async findOptOut(token: string) {
    return this.tokens.get(token) ?? null;
  }
  async optOut(ref: OptOutRef) {
    const c = this.customer(ref.tenant, ref.customerId);
    if (!c.optedOut.includes(ref.channel)) c.optedOut.push(ref.channel);
  }
}

/** A Messenger that records what it was asked to send; `fail` makes a channel throw. */
export class RecordingMessenger implements Messenger {
  readonly sent: ChannelMessage[] = [];
  readonly fail = new Set<ChannelMessage['channel']>();

  async send(message: ChannelMessage): Promise<void> {
    if (this.fail.has(message.channel)) throw new Error(`${message.channel} provider unavailable`);
    this.sent.push(message);
  }
}

/** A cipher whose ciphertext names its context: opening with another context fails. */
export class FakeCipher implements SecretCipher {
  async encrypt(plaintext: string, context: Record<string, string>) {
    return `sealed:${JSON.stringify(context)}:${Buffer.from(plaintext).toString('base64')}`;
  }
  async decrypt(ciphertext: string, context: Record<string, string>) {
    const prefix = `sealed:${JSON.stringify(context)}:`;
    if (!ciphertext.startsWith(prefix)) throw new Error('InvalidCiphertextException');
    return Buffer.from(ciphertext.slice(prefix.length), 'base64').toString();
  }
}
