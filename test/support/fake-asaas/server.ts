import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '#infra/local/seeded-random';
import { addDays } from '#shared/dates';
import { amountDueOn, type LateChargeTerms, type Rate } from '#shared/domain/payments/amount-due';
import { buildPixPayload } from '#shared/domain/payments/pix';

/**
 * A local stand-in of Asaas API v3 on a random loopback port, built from the request and response
 * examples of the provider's public reference (customers, payments, pixQrCode, identificationField,
 * tokenizeCreditCard, refund, status, myAccount/commercialInfo, and Pix Automático's
 * pix/automatic/authorizations with payments linked by pixAutomaticAuthorizationId) and its webhook
 * event objects (payment and authorization events). Tests read every request it received, script
 * failures (a 5xx, a 429, a hang) for the next calls, and play the payer (pay a composite QR,
 * revoke an authorization at the bank).
 *
 * Run in a process of its own (`main.ts`), it is driven over HTTP instead: the `/__admin/` routes
 * (ADMIN_PREFIX below) add accounts, point their webhooks, list every payment, pay one, and switch
 * seeded faults on and off (a 5xx, a hang, a lost answer, a slow answer).
 */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  body: any;
}

interface Account {
  name: string;
  webhook?: { url: string; token: string };
  /** Pix Automático is under controlled access: a refused account answers this status. */
  pixAutomaticRefusal?: number;
}

/** A Pix Automático authorization, as "Create an authorization" / "Retrieve an authorization" show it. */
interface Authorization {
  object: 'pixAutomaticAuthorization';
  id: string;
  status: 'CREATED' | 'ACTIVE' | 'CANCELLED' | 'REFUSED' | 'EXPIRED';
  customerId: string;
  frequency: string;
  contractId: string;
  startDate: string;
  finishDate: string | null;
  value: number;
  description: string;
  immediateQrCode: {
    conciliationIdentifier: string;
    expirationDate: string;
    originalValue: number;
    payload: string;
    encodedImage: string;
  };
  apiKey: string;
}

const FREQUENCIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUALLY', 'ANNUALLY'];

interface Payment {
  object: 'payment';
  id: string;
  /** The day the payment was created (the account's calendar, Brazil): what "List payments" filters on. */
  dateCreated: string;
  customer: string;
  billingType: string;
  value: number;
  netValue: number;
  /** The charge's own value once `value` grew by a late payment's fine and interest (else null). */
  originalValue: number | null;
  /** The fine and interest within `value` of a late payment (else null). */
  interestValue: number | null;
  /** The terms registered with it ("Create new payment"): percent or Reais, interest in percent a month. */
  fine: { value: number; type: 'PERCENTAGE' | 'FIXED' } | null;
  interest: { value: number } | null;
  discount: { value: number; dueDateLimitDays: number; type: 'PERCENTAGE' | 'FIXED' } | null;
  status: string;
  dueDate: string;
  description: string;
  externalReference: string | null;
  installmentCount?: number;
  invoiceUrl: string;
  bankSlipUrl: string | null;
  creditCard: { creditCardNumber: string; creditCardBrand: string; creditCardToken: string } | null;
  refunds: { id: string; value: number; status: string }[] | null;
  /** The immediate QR's conciliation id, on the first payment of a Pix Automático authorization. */
  pixQrCodeId?: string | null;
  pixAutomaticAuthorizationId?: string | null;
  deleted: boolean;
  apiKey: string;
}

interface Scripted {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (the client's timeout fires). */
  hang?: boolean;
  /** Carry the call out, then drop the connection before answering (the answer is lost). */
  lose?: boolean;
}

/**
 * Faults for a share of the calls, drawn from a seed, or for the next N calls:
 * - `error`: answers `status` (default 503) and does nothing;
 * - `hang`: never answers and does nothing (the client's timeout fires);
 * - `lost`: does what was asked (a payment is created, a refund made) and never answers: the
 *   provider acted, the client cannot know;
 * - `slow`: does what was asked at once and answers after `delayMs` (default 2,000): a client
 *   that dies meanwhile never learns what the provider did.
 */
export interface FaultPlan {
  mode: 'error' | 'hang' | 'lost' | 'slow';
  /** The share of calls hit, 0 to 1 (default 1: every call). */
  share?: number;
  /** Only the next N calls are candidates; after them the plan ends by itself. */
  next?: number;
  /** The seed of the draws (default 1), so a run repeats the same faults at the same calls. */
  seed?: number;
  status?: number;
  delayMs?: number;
}

interface ActiveFaults {
  plan: FaultPlan;
  draw: () => number;
  remaining: number;
  /** Calls the plan hit so far. */
  hits: number;
}

/** Card numbers with a scripted answer; any other valid number is authorized. */
export const FAKE_CARDS = {
  approved: '5162306219378829',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expired: '4000000000000069',
} as const;

const DECLINE_DESCRIPTIONS: Record<string, string> = {
  [FAKE_CARDS.declined]:
    'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.',
  [FAKE_CARDS.insufficientFunds]: 'Transação não autorizada: saldo ou limite insuficiente.',
  [FAKE_CARDS.expired]: 'Transação não autorizada: cartão vencido.',
};

export const FAKE_PIX_PAYLOAD =
  '00020101021226820014br.gov.bcb.pix2560qrpix.bradesco.com.br/qr/v2/9d36b84f-c70b-478f-b95c-12729b90ca25520400005303986540510.005802BR5905ASAAS6009JOINVILLE62070503***63041D3D';
/** A composite (journey 3) BR Code: the immediate pix and the recurrence (field 80) in one payload. */
export const FAKE_PIX_AUTOMATIC_PAYLOAD =
  '00020101021226820014br.gov.bcb.pix2560qrpix.bradesco.com.br/qr/v2/cobv/5b2f1b4e-1f4a-4b8e-9a55-1d5c7e2f0a11520400005303986540519.905802BR5905ASAAS6009JOINVILLE62070503***80820014br.gov.bcb.pix2560qrpix.bradesco.com.br/qr/v2/rec/0f4e8a2c-7d1b-4c3e-9f6a-2b8d5e1c4a776304A1B2';
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export class FakeAsaas {
  readonly requests: RecordedRequest[] = [];
  private readonly accounts = new Map<string, Account>();
  private readonly customers = new Map<
    string,
    { id: string; cpfCnpj: string; name: string; apiKey: string }
  >();
  private readonly payments = new Map<string, Payment>();
  private readonly tokens = new Map<string, { last4: string; brand: string; customer: string }>();
  private readonly authorizations = new Map<string, Authorization>();
  private readonly script: Scripted[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private readonly targeted: { method: string; path: string | RegExp; answer: Scripted }[] = [];
  private outage: 'error' | 'hang' | null = null;
  private faults: ActiveFaults | null = null;
  private server?: Server;
  private seq = 0;
  baseUrl = '';
  /** The provider's calendar day (YYYY-MM-DD) of a payment created now; tests tie it to their clock. */
  today: () => string = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);

  /** On a random loopback port, or `port`. */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v3`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** An account whose API key the fake accepts. */
  addAccount(apiKey: string, name: string): void {
    this.accounts.set(apiKey, { name });
  }

  /** Where the account's webhooks go, with the token Asaas sends in `asaas-access-token`. */
  setWebhook(apiKey: string, url: string, token: string): void {
    const account = this.accounts.get(apiKey);
    if (account) account.webhook = { url, token };
  }

  /** The account is not enabled for Pix Automático: creating an authorization answers `status`. */
  refusePixAutomatic(apiKey: string, status = 403): void {
    const account = this.accounts.get(apiKey);
    if (account) account.pixAutomaticRefusal = status;
  }

  authorization(id: string): Authorization | undefined {
    return this.authorizations.get(id);
  }

  /**
   * The buyer pays the composite QR: Asaas creates the first payment (RECEIVED, no externalReference,
   * the QR's conciliation id as pixQrCodeId), activates the authorization, and posts PAYMENT_RECEIVED
   * then PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED.
   */
  async payAuthorizationQr(
    authorizationId: string,
  ): Promise<{ payment: Response | undefined; activated: Response | undefined }> {
    const a = this.authorizations.get(authorizationId);
    if (!a) throw new Error(`no authorization ${authorizationId}`);
    const id = `pay_${this.nextId()}`;
    const payment: Payment = {
      object: 'payment',
      id,
      dateCreated: this.today(),
      customer: a.customerId,
      billingType: 'PIX',
      value: a.immediateQrCode.originalValue,
      netValue: a.immediateQrCode.originalValue,
      ...NO_TERMS,
      status: 'RECEIVED',
      dueDate: a.immediateQrCode.expirationDate.slice(0, 10),
      description: a.description,
      externalReference: null,
      invoiceUrl: `https://sandbox.asaas.com/i/${id.slice(4)}`,
      bankSlipUrl: null,
      creditCard: null,
      refunds: null,
      pixQrCodeId: a.immediateQrCode.conciliationIdentifier,
      pixAutomaticAuthorizationId: a.id,
      deleted: false,
      apiKey: a.apiKey,
    };
    this.payments.set(id, payment);
    a.status = 'ACTIVE';
    const paid = await this.sendEvent(payment, 'PAYMENT_RECEIVED');
    const activated = await this.sendAuthorizationEvent(a, 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED');
    return { payment: paid, activated };
  }

  /** The payer revokes the authorization at the bank: CANCELLED, and the event posted. */
  async revokeAuthorization(authorizationId: string): Promise<Response | undefined> {
    const a = this.authorizations.get(authorizationId);
    if (!a) throw new Error(`no authorization ${authorizationId}`);
    a.status = 'CANCELLED';
    return this.sendAuthorizationEvent(a, 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED');
  }

  /** Posts one authorization event ("Events for Automatic Pix": the event with its `authorization`). */
  async sendAuthorizationEvent(
    a: Authorization,
    event: string,
    id = `evt_${randomUUID().replace(/-/g, '')}&${++this.seq}`,
  ) {
    const webhook = this.accounts.get(a.apiKey)?.webhook;
    if (!webhook) return undefined;
    return fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'asaas-access-token': webhook.token },
      body: JSON.stringify({
        id,
        event,
        dateCreated: '2026-11-23 10:00:00',
        authorization: shownAuthorization(a),
      }),
    });
  }

  /**
   * The next call of this method to this path (`/v3/payments`, or a pattern of paths) answers
   * `answer`, whatever comes before it.
   */
  failOn(method: string, path: string | RegExp, answer: Scripted): void {
    this.targeted.push({ method, path, answer });
  }

  /** The next calls answer these, in order, whatever they ask. */
  failNext(...answers: Scripted[]): void {
    this.script.push(...answers);
  }

  /** An outage until `down(null)`: every call answers 503 (`error`) or never answers (`hang`). */
  down(mode: 'error' | 'hang' | null): void {
    this.outage = mode;
  }

  /** Seeded faults until `setFaults(null)` (or until its `next` calls are spent). */
  setFaults(plan: FaultPlan | null): void {
    this.faults = plan
      ? {
          plan,
          draw: seededRandom(plan.seed ?? 1),
          remaining: plan.next ?? Number.POSITIVE_INFINITY,
          hits: 0,
        }
      : null;
  }

  /** The plan in force and how many calls it hit, or null. */
  faultState(): { plan: FaultPlan; hits: number } | null {
    return this.faults ? { plan: this.faults.plan, hits: this.faults.hits } : null;
  }

  /** Every payment of every account, as "Retrieve a payment" shows it, with its account's name. */
  allPayments(): (Omit<Payment, 'apiKey'> & { account: string; customerDocument: string })[] {
    return [...this.payments.values()].map(({ apiKey, ...shown }) => ({
      ...shown,
      account: this.accounts.get(apiKey)?.name ?? '',
      customerDocument: this.customers.get(shown.customer)?.cpfCnpj ?? '',
    }));
  }

  payment(id: string): Payment | undefined {
    return this.payments.get(id);
  }

  /** Every payment of an account, deleted ones included, in the order they were created. */
  paymentsOf(apiKey: string): Payment[] {
    return [...this.payments.values()].filter((p) => p.apiKey === apiKey);
  }

  /** The provider forgets a payment (it never held it, as far as any listing shows). */
  forget(paymentId: string): void {
    this.payments.delete(paymentId);
  }

  /**
   * A payment made at the provider outside this service (the seller's panel, another integration):
   * created today for the account's first customer, with the given value, status and reference.
   */
  addForeignPayment(
    apiKey: string,
    fields: { value: number; status?: string; externalReference?: string | null; billingType?: string },
  ): Payment {
    const id = `pay_${this.nextId()}`;
    const payment: Payment = {
      object: 'payment',
      id,
      dateCreated: this.today(),
      customer: [...this.customers.values()].find((c) => c.apiKey === apiKey)?.id ?? 'cus_000000000000',
      billingType: fields.billingType ?? 'PIX',
      value: fields.value,
      netValue: fields.value,
      ...NO_TERMS,
      status: fields.status ?? 'RECEIVED',
      dueDate: this.today(),
      description: '',
      externalReference: fields.externalReference ?? null,
      invoiceUrl: `https://sandbox.asaas.com/i/${id.slice(4)}`,
      bankSlipUrl: null,
      creditCard: null,
      refunds: null,
      deleted: false,
      apiKey,
    };
    this.payments.set(id, payment);
    return payment;
  }

  paymentByReference(externalReference: string): Payment | undefined {
    return [...this.payments.values()].find((p) => p.externalReference === externalReference);
  }

  /**
   * The buyer pays on the provider's `today()`: RECEIVED, and the PAYMENT_RECEIVED event posted to the
   * account's webhook. A pix or boleto pays what its terms make due that day: late, `value` grows by
   * the fine and interest (`originalValue` keeps the charge's, `interestValue` the extra); early, it
   * shrinks by the discount. `via: 'PIX'` pays a boleto by its pix QR code (the boleto híbrido): the
   * payment then shows billingType PIX. A pix or boleto already received cannot be paid again (throws).
   */
  async pay(paymentId: string, options: { via?: 'PIX' | 'BOLETO' } = {}): Promise<Response | undefined> {
    const payment = this.payments.get(paymentId);
    if (!payment) throw new Error(`no payment ${paymentId}`);
    // A card's balance is released later (PAYMENT_RECEIVED after CONFIRMED, even after a dispute);
    // a pix or boleto is paid once.
    const payable = ['PENDING', 'OVERDUE', 'CONFIRMED'].includes(payment.status);
    if (!payable && payment.billingType !== 'CREDIT_CARD')
      throw new Error(`payment ${paymentId} is ${payment.status}; it cannot be paid`);
    if (payment.billingType !== 'CREDIT_CARD' && payment.status !== 'CONFIRMED') {
      const face = Math.round(payment.value * 100);
      const due = amountDueOn(face, payment.dueDate, termsOf(payment), this.today());
      if (due.amountDue !== face) {
        payment.originalValue = payment.value;
        payment.value = due.amountDue / 100;
        payment.netValue = payment.value;
        payment.interestValue = due.fine + due.interest > 0 ? (due.fine + due.interest) / 100 : null;
      }
      if (options.via === 'PIX') payment.billingType = 'PIX';
    }
    payment.status = 'RECEIVED';
    return this.sendEvent(payment, 'PAYMENT_RECEIVED');
  }

  /**
   * The seller refunds in the Asaas panel: a refund of `value` Reais (all that remains when absent)
   * is added, and PAYMENT_PARTIALLY_REFUNDED or PAYMENT_REFUNDED posted with the payment's refunds.
   */
  async refundInPanel(paymentId: string, value?: number): Promise<Response | undefined> {
    const payment = this.payments.get(paymentId);
    if (!payment) throw new Error(`no payment ${paymentId}`);
    const refunded = (payment.refunds ?? []).reduce((sum, r) => sum + Math.round(r.value * 100), 0);
    const centavos =
      value === undefined ? Math.round(payment.value * 100) - refunded : Math.round(value * 100);
    payment.refunds = [
      ...(payment.refunds ?? []),
      { id: `ref_${this.nextId()}`, value: centavos / 100, status: 'DONE' },
    ];
    const full = refunded + centavos >= Math.round(payment.value * 100);
    if (full) payment.status = 'REFUNDED';
    return this.sendEvent(payment, full ? 'PAYMENT_REFUNDED' : 'PAYMENT_PARTIALLY_REFUNDED');
  }

  /**
   * A card chargeback's life at Asaas ("Payment events"): the buyer's bank opens it
   * (CHARGEBACK_REQUESTED), the seller disputes it (CHARGEBACK_DISPUTE), and wins
   * (AWAITING_CHARGEBACK_REVERSAL: "Disputa vencida, aguardando repasse da adquirente"). Each step
   * sets the payment's status and posts its PAYMENT_<status> event.
   */
  async chargeback(
    paymentId: string,
    step: 'CHARGEBACK_REQUESTED' | 'CHARGEBACK_DISPUTE' | 'AWAITING_CHARGEBACK_REVERSAL',
    eventId?: string,
  ): Promise<Response | undefined> {
    const payment = this.payments.get(paymentId);
    if (!payment) throw new Error(`no payment ${paymentId}`);
    payment.status = step;
    return this.sendEvent(payment, `PAYMENT_${step}`, eventId);
  }

  /** Posts one webhook event of a payment, as Asaas would (its event object). */
  async sendEvent(
    payment: Payment,
    event: string,
    id = `evt_${randomUUID().replace(/-/g, '')}&${++this.seq}`,
  ) {
    const webhook = this.accounts.get(payment.apiKey)?.webhook;
    if (!webhook) return undefined;
    const { apiKey: _key, ...shown } = payment;
    return fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'asaas-access-token': webhook.token },
      body: JSON.stringify({ id, event, dateCreated: '2026-11-23 10:00:00', payment: shown }),
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    // The admin surface of the fake in its own process: never recorded, never faulted.
    if (url.pathname.startsWith(ADMIN_PREFIX)) return this.admin(req.method ?? 'GET', url, body as any, res);
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      headers: req.headers,
      rawBody,
      body,
    });
    if (this.outage === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (this.outage === 'error') return this.send(res, 503, {});
    const fault = this.drawFault();
    if (fault?.mode === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (fault?.mode === 'error') return this.send(res, fault.status ?? 503, {});
    const target = this.targeted.findIndex(
      (t) =>
        t.method === req.method &&
        (typeof t.path === 'string' ? t.path === url.pathname : t.path.test(url.pathname)),
    );
    const scripted = target >= 0 ? this.targeted.splice(target, 1)[0].answer : this.script.shift();
    if (scripted?.hang) {
      this.hanging.add(res);
      return;
    }
    if (scripted && !scripted.lose)
      return this.send(res, scripted.status, scripted.body ?? {}, scripted.headers);
    const apiKey = String(req.headers.access_token ?? '');
    const account = this.accounts.get(apiKey);
    if (!account) return this.send(res, 401, {});
    const [status, answer] = this.route(req.method ?? 'GET', url, body as any, apiKey, account);
    if (scripted?.lose) {
      res.destroy();
      return;
    }
    if (fault?.mode === 'lost') {
      this.hanging.add(res);
      return;
    }
    if (fault?.mode === 'slow') await new Promise((r) => setTimeout(r, fault.delayMs ?? 2_000));
    this.send(res, status, answer);
  }

  /** The plan's fault for this call, if it hits it. */
  private drawFault(): FaultPlan | undefined {
    const active = this.faults;
    if (!active) return undefined;
    if (active.remaining <= 0) {
      this.faults = null;
      return undefined;
    }
    active.remaining -= 1;
    if (active.draw() >= (active.plan.share ?? 1)) return undefined;
    active.hits += 1;
    return active.plan;
  }

  private async admin(method: string, url: URL, body: any, res: ServerResponse) {
    const path = url.pathname.slice(ADMIN_PREFIX.length);
    const payAction = /^payments\/([^/]+)\/pay$/.exec(path);
    if (method === 'POST' && path === 'accounts') {
      this.addAccount(String(body?.apiKey), String(body?.name));
      return this.send(res, 204, null);
    }
    if (method === 'PUT' && path === 'webhooks') {
      this.setWebhook(String(body?.apiKey), String(body?.url), String(body?.token));
      return this.send(res, 204, null);
    }
    if (method === 'GET' && path === 'payments') return this.send(res, 200, { data: this.allPayments() });
    if (method === 'POST' && payAction) {
      const payment = this.payments.get(payAction[1]);
      if (!payment) return this.send(res, 404, {});
      if (payment.status === 'RECEIVED') return this.send(res, 409, { message: 'already received' });
      // Asaas retries a webhook that failed (its queue); here every second for up to a minute.
      const via = body?.via === 'PIX' ? 'PIX' : undefined;
      let answer = await this.pay(payment.id, via ? { via } : {}).catch(() => undefined);
      for (let retry = 0; retry < 60 && !answer?.ok; retry++) {
        await new Promise((r) => setTimeout(r, 1_000));
        answer = await this.sendEvent(payment, 'PAYMENT_RECEIVED').catch(() => undefined);
      }
      return this.send(res, 200, { webhookStatus: answer?.status ?? null });
    }
    if (method === 'GET' && path === 'faults') return this.send(res, 200, { faults: this.faultState() });
    if (method === 'PUT' && path === 'faults') {
      this.setFaults(body ?? null);
      return this.send(res, 200, { faults: this.faultState() });
    }
    if (method === 'DELETE' && path === 'faults') {
      this.setFaults(null);
      return this.send(res, 204, null);
    }
    if (method === 'GET' && path === 'requests')
      return this.send(res, 200, {
        data: this.requests.map((r) => ({ method: r.method, path: r.path, body: r.body })),
      });
    return this.send(res, 404, { message: `no admin route ${method} ${url.pathname}` });
  }

  private route(method: string, url: URL, body: any, apiKey: string, account: Account): [number, unknown] {
    const path = url.pathname.replace(/^\/v3/, '');
    const pay = /^\/payments\/([^/]+)(\/[a-zA-Z]+)?$/.exec(path);
    if (method === 'GET' && path === '/myAccount/commercialInfo')
      return [200, { name: account.name, companyName: account.name, email: 'conta@example.com' }];
    if (method === 'GET' && path === '/customers') {
      const cpfCnpj = url.searchParams.get('cpfCnpj');
      const data = [...this.customers.values()]
        .filter((c) => c.apiKey === apiKey && c.cpfCnpj === cpfCnpj)
        .map(({ apiKey: _k, ...c }) => ({ object: 'customer', ...c }));
      return [200, { object: 'list', hasMore: false, totalCount: data.length, limit: 10, offset: 0, data }];
    }
    if (method === 'POST' && path === '/customers') {
      if (!body?.name || !body?.cpfCnpj)
        return [400, { errors: [{ code: 'invalid_object', description: 'name and cpfCnpj are required' }] }];
      const customer = { id: `cus_${this.nextId()}`, name: body.name, cpfCnpj: body.cpfCnpj, apiKey };
      this.customers.set(customer.id, customer);
      return [200, { object: 'customer', id: customer.id, name: customer.name, cpfCnpj: customer.cpfCnpj }];
    }
    if (method === 'POST' && path === '/creditCard/tokenizeCreditCard') {
      const number = String(body?.creditCard?.number ?? '');
      if (DECLINE_DESCRIPTIONS[number])
        return [400, { errors: [{ code: 'invalid_creditCard', description: DECLINE_DESCRIPTIONS[number] }] }];
      const token = randomUUID();
      this.tokens.set(token, { last4: number.slice(-4), brand: brandOf(number), customer: body?.customer });
      return [
        200,
        { creditCardNumber: number.slice(-4), creditCardBrand: brandOf(number), creditCardToken: token },
      ];
    }
    if (method === 'POST' && path === '/payments') return this.createPayment(body, apiKey);
    if (method === 'GET' && path === '/payments') return this.listPayments(url.searchParams, apiKey);
    if (method === 'POST' && path === '/pix/automatic/authorizations')
      return this.createAuthorization(body, apiKey, account);
    if (method === 'GET' && path === '/pix/automatic/authorizations') {
      // "List authorizations": filtered by customerId and status, offset and limit (at most 100).
      const all = [...this.authorizations.values()].filter(
        (a) =>
          a.apiKey === apiKey &&
          (!url.searchParams.get('customerId') || a.customerId === url.searchParams.get('customerId')) &&
          (!url.searchParams.get('status') || a.status === url.searchParams.get('status')),
      );
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 10));
      const data = all.slice(offset, offset + limit).map(shownAuthorization);
      return [
        200,
        { object: 'list', hasMore: offset + limit < all.length, totalCount: all.length, limit, offset, data },
      ];
    }
    const auth = /^\/pix\/automatic\/authorizations\/([^/]+)$/.exec(path);
    if (auth) {
      const a = this.authorizations.get(decodeURIComponent(auth[1]));
      if (!a || a.apiKey !== apiKey) return [404, {}];
      if (method === 'GET') return [200, shownAuthorization(a)];
      if (method === 'DELETE') {
        a.status = 'CANCELLED';
        return [200, shownAuthorization(a)];
      }
    }
    if (pay) {
      const payment = this.payments.get(pay[1]);
      if (!payment || payment.apiKey !== apiKey || payment.deleted) return [404, {}];
      const { apiKey: _k, ...shown } = payment;
      const action = pay[2] ?? '';
      if (method === 'GET' && action === '') return [200, shown];
      if (method === 'GET' && action === '/status') return [200, { status: payment.status }];
      if (method === 'GET' && action === '/pixQrCode')
        return [
          200,
          {
            encodedImage: PNG_1PX,
            payload:
              payment.billingType === 'BOLETO' ? boletoPixPayload(payment, account.name) : FAKE_PIX_PAYLOAD,
            expirationDate: `${payment.dueDate} 23:59:59`,
          },
        ];
      if (method === 'GET' && action === '/identificationField')
        return [
          200,
          {
            identificationField: '00190000090275928800021932978170187890000005000',
            nossoNumero: '6543',
            barCode: '00191878900000050000000002759288002193297817',
          },
        ];
      if (method === 'DELETE' && action === '') {
        payment.deleted = true;
        return [200, { deleted: true, id: payment.id }];
      }
      if (method === 'POST' && action === '/refund') {
        const value = typeof body?.value === 'number' ? body.value : payment.value;
        const refund = {
          id: `ref_${this.nextId()}`,
          value,
          status: 'DONE',
          description: body?.description ?? null,
        };
        payment.refunds = [...(payment.refunds ?? []), refund];
        const total = payment.refunds.reduce((sum, r) => sum + Math.round(r.value * 100), 0);
        if (total >= Math.round(payment.value * 100)) payment.status = 'REFUNDED';
        const { apiKey: _k2, ...after } = payment;
        return [200, after];
      }
    }
    return [404, {}];
  }

  /**
   * "List payments": the account's payments not deleted, filtered by `dateCreated[ge]` /
   * `dateCreated[le]` (days, inclusive), paged by `offset` and `limit` (at most 100), with `hasMore`.
   */
  private listPayments(params: URLSearchParams, apiKey: string): [number, unknown] {
    const from = params.get('dateCreated[ge]');
    const to = params.get('dateCreated[le]');
    const reference = params.get('externalReference');
    const offset = Number(params.get('offset') ?? 0);
    const limit = Number(params.get('limit') ?? 10);
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 100)
      return [400, { errors: [{ code: 'invalid_object', description: 'offset or limit is invalid' }] }];
    const all = [...this.payments.values()].filter(
      (p) =>
        p.apiKey === apiKey &&
        !p.deleted &&
        (!from || p.dateCreated >= from) &&
        (!to || p.dateCreated <= to) &&
        (reference === null || p.externalReference === reference),
    );
    const data = all.slice(offset, offset + limit).map(({ apiKey: _k, ...shown }) => shown);
    return [
      200,
      { object: 'list', hasMore: offset + limit < all.length, totalCount: all.length, limit, offset, data },
    ];
  }

  private createAuthorization(body: any, apiKey: string, account: Account): [number, unknown] {
    if (account.pixAutomaticRefusal)
      return [
        account.pixAutomaticRefusal,
        {
          errors: [
            { code: 'invalid_action', description: 'O Pix Automático não está habilitado para esta conta.' },
          ],
        },
      ];
    const customer = this.customers.get(body?.customerId);
    if (!customer || customer.apiKey !== apiKey)
      return [400, { errors: [{ code: 'invalid_customer', description: 'Customer not found' }] }];
    const invalid = (field: string) => [
      400,
      { errors: [{ code: 'invalid_object', description: `O campo ${field} é inválido.` }] },
    ];
    if (!FREQUENCIES.includes(body.frequency)) return invalid('frequency') as [number, unknown];
    if (typeof body.contractId !== 'string' || !body.contractId || body.contractId.length > 35)
      return invalid('contractId') as [number, unknown];
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(body.startDate))) return invalid('startDate') as [number, unknown];
    if (typeof body.value !== 'number' || body.value <= 0) return invalid('value') as [number, unknown];
    const qr = body.immediateQrCode;
    if (typeof qr?.originalValue !== 'number' || qr.originalValue <= 0)
      return invalid('immediateQrCode.originalValue') as [number, unknown];
    if (!Number.isInteger(qr.expirationSeconds) || qr.expirationSeconds <= 0)
      return invalid('immediateQrCode.expirationSeconds') as [number, unknown];
    const id = randomUUID();
    const a: Authorization = {
      object: 'pixAutomaticAuthorization',
      id,
      status: 'CREATED',
      customerId: customer.id,
      frequency: body.frequency,
      contractId: body.contractId,
      startDate: body.startDate,
      finishDate: body.finishDate ?? null,
      value: body.value,
      description: body.description ?? '',
      immediateQrCode: {
        conciliationIdentifier: `AUT${this.nextId()}`,
        expirationDate: '2026-11-24 23:59:59',
        originalValue: qr.originalValue,
        payload: FAKE_PIX_AUTOMATIC_PAYLOAD,
        encodedImage: PNG_1PX,
      },
      apiKey,
    };
    this.authorizations.set(id, a);
    return [200, shownAuthorization(a)];
  }

  private createPayment(body: any, apiKey: string): [number, unknown] {
    const customer = this.customers.get(body?.customer);
    if (!customer || customer.apiKey !== apiKey)
      return [400, { errors: [{ code: 'invalid_customer', description: 'Customer not found' }] }];
    const value = body.installmentCount > 1 ? body.totalValue : body.value;
    if (typeof value !== 'number' || value <= 0)
      return [400, { errors: [{ code: 'invalid_value', description: 'The value field must be informed' }] }];
    if (body.pixAutomaticAuthorizationId !== undefined) {
      const a = this.authorizations.get(body.pixAutomaticAuthorizationId);
      if (!a || a.apiKey !== apiKey || a.customerId !== customer.id || body.billingType !== 'PIX')
        return [400, { errors: [{ code: 'invalid_object', description: 'Autorização não encontrada.' }] }];
      if (a.status !== 'ACTIVE')
        return [400, { errors: [{ code: 'invalid_action', description: 'A autorização não está ativa.' }] }];
      if (value !== a.value)
        return [
          400,
          {
            errors: [{ code: 'invalid_value', description: 'O valor difere do valor fixo da autorização.' }],
          },
        ];
    }
    let creditCard: Payment['creditCard'] = null;
    if (body.billingType === 'CREDIT_CARD') {
      if (body.creditCardToken) {
        const token = this.tokens.get(body.creditCardToken);
        if (!token)
          return [
            400,
            { errors: [{ code: 'invalid_creditCard', description: 'Token de cartão inválido.' }] },
          ];
        creditCard = {
          creditCardNumber: token.last4,
          creditCardBrand: token.brand,
          creditCardToken: body.creditCardToken,
        };
      } else {
        const number = String(body.creditCard?.number ?? '');
        if (DECLINE_DESCRIPTIONS[number])
          return [
            400,
            { errors: [{ code: 'invalid_creditCard', description: DECLINE_DESCRIPTIONS[number] }] },
          ];
        const token = randomUUID();
        this.tokens.set(token, { last4: number.slice(-4), brand: brandOf(number), customer: customer.id });
        creditCard = {
          creditCardNumber: number.slice(-4),
          creditCardBrand: brandOf(number),
          creditCardToken: token,
        };
      }
    }
    const id = `pay_${this.nextId()}`;
    const payment: Payment = {
      object: 'payment',
      id,
      dateCreated: this.today(),
      customer: customer.id,
      billingType: body.billingType,
      value,
      netValue: value,
      originalValue: null,
      interestValue: null,
      fine: termOf(body.fine),
      interest: typeof body.interest?.value === 'number' ? { value: body.interest.value } : null,
      discount:
        termOf(body.discount) && Number.isInteger(body.discount.dueDateLimitDays)
          ? {
              ...(termOf(body.discount) as NonNullable<Payment['fine']>),
              dueDateLimitDays: body.discount.dueDateLimitDays,
            }
          : null,
      status: body.billingType === 'CREDIT_CARD' ? 'CONFIRMED' : 'PENDING',
      dueDate: body.dueDate,
      description: body.description ?? '',
      externalReference: body.externalReference ?? null,
      ...(body.installmentCount > 1 ? { installmentCount: body.installmentCount } : {}),
      invoiceUrl: `https://sandbox.asaas.com/i/${id.slice(4)}`,
      bankSlipUrl: body.billingType === 'BOLETO' ? `https://sandbox.asaas.com/b/pdf/${id.slice(4)}` : null,
      creditCard,
      refunds: null,
      ...(body.pixAutomaticAuthorizationId
        ? { pixAutomaticAuthorizationId: body.pixAutomaticAuthorizationId }
        : {}),
      deleted: false,
      apiKey,
    };
    this.payments.set(id, payment);
    const { apiKey: _k, ...shown } = payment;
    return [200, shown];
  }

  private nextId() {
    this.seq += 1;
    return String(80225913252 + this.seq).padStart(12, '0');
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    if (status === 204) {
      res.writeHead(204, headers);
      res.end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }
}

/**
 * The admin surface of a fake in its own process (main.ts), outside Asaas's /v3:
 * - `POST /__admin/accounts` `{apiKey, name}`: an account whose key the fake accepts;
 * - `PUT /__admin/webhooks` `{apiKey, url, token}`: where its webhooks go;
 * - `GET /__admin/payments`: `{data}`, every payment (externalReference, status, value, refunds…);
 * - `POST /__admin/payments/{id}/pay` `{via?: 'PIX'}`: the buyer pays (a boleto by its pix with
 *   `via`; PAYMENT_RECEIVED posted, and posted again every second, up to a minute, while the webhook
 *   fails, as Asaas retries); 409 for a payment already received;
 * - `GET|PUT|DELETE /__admin/faults`: the seeded fault plan (FaultPlan), or none;
 * - `GET /__admin/requests`: `{data}`, every API call received (method, path, body).
 */
export const ADMIN_PREFIX = '/__admin/';

const shownAuthorization = ({ apiKey: _k, ...shown }: Authorization) => shown;

const NO_TERMS = { originalValue: null, interestValue: null, fine: null, interest: null, discount: null };

/** A fine or discount of the request body, when it is one ({value, type}). */
function termOf(field: any): { value: number; type: 'PERCENTAGE' | 'FIXED' } | null {
  if (typeof field?.value !== 'number' || field.value <= 0) return null;
  return { value: field.value, type: field.type === 'FIXED' ? 'FIXED' : 'PERCENTAGE' };
}

const rateOf = (term: { value: number; type: 'PERCENTAGE' | 'FIXED' }): Rate =>
  term.type === 'FIXED'
    ? { type: 'fixed', centavos: Math.round(term.value * 100) }
    : { type: 'percentage', basisPoints: Math.round(term.value * 100) };

/** The payment's registered terms as the bank applies them (the discount runs to `dueDateLimitDays` before the due date). */
function termsOf(payment: Payment): LateChargeTerms {
  return {
    fine: payment.fine ? rateOf(payment.fine) : null,
    interest: payment.interest ? { basisPointsPerMonth: Math.round(payment.interest.value * 100) } : null,
    discounts: payment.discount
      ? [
          {
            until: addDays(payment.dueDate, -payment.discount.dueDateLimitDays),
            rate: rateOf(payment.discount),
          },
        ]
      : [],
  };
}

/**
 * The pix of a BOLETO payment (the boleto híbrido): a dynamic BR Code of the payment's value, its
 * location naming the payment, with a CRC that checks.
 */
function boletoPixPayload(payment: Payment, accountName: string): string {
  return buildPixPayload({
    locationUrl: `pix.asaas.fake/qr/v2/cobv/${payment.id}`,
    amountCentavos: Math.round(payment.value * 100),
    merchantName: accountName,
    merchantCity: 'JOINVILLE',
    txid: '***',
  });
}

const brandOf = (number: string) =>
  number.startsWith('4') ? 'VISA' : number.startsWith('5') ? 'MASTERCARD' : 'ELO';

export const startFakeAsaas = () => new FakeAsaas().start();
