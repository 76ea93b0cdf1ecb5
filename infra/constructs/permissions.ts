/**
 * What each function may do, as data. The functions construct turns a declaration into IAM
 * statements; adding a capability to a function is a one-line change here, and a reviewer sees
 * every function's reach in one place.
 */
import { keys } from '#shared/adapters/dynamodb/keys';
import type { Route } from '#shared/http/types';
import type { SecretName } from '#shared/secrets';

const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;

/**
 * DynamoDB access levels. Only `migrate` includes Scan (the design forbids it in requests and
 * jobs); none includes BatchWriteItem (no repository writes in batches).
 */
export const TABLE_ACCESS = {
  /** Health probes: one GetItem on a fixed key, nothing else. */
  getItem: { actions: ['dynamodb:GetItem'], indexes: false },
  /**
   * A group whose use cases only read (the hosted pages): items, batches and queries on the GSIs.
   * The writes its routes' pipeline makes (rate counters) are granted apart, on their partitions
   * only (pipelineWritesOf).
   */
  read: { actions: READ_ACTIONS, indexes: true },
  /**
   * Everything a request or job does through the repositories: reads, queries on the GSIs,
   * conditional writes and the TransactWriteItems/TransactGetItems they are made of (IAM
   * authorises a transaction by its member actions, ConditionCheckItem among them).
   */
  readWrite: {
    actions: [
      ...READ_ACTIONS,
      'dynamodb:ConditionCheckItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    ],
    indexes: true,
  },
  /**
   * The deployment's migrations: what requests do, plus Scan on the table (never an index), for a
   * migration that must visit an entity no index lists whole. A one-off batch job at deployment,
   * never a request or a job.
   */
  migrate: { actions: ['dynamodb:Scan'], indexes: false },
  /**
   * The request log's writer: PutItem on the sellers' request-log partitions
   * (`SELLER#<id>#<env>#REQUESTS`) and nothing else.
   */
  appendRequestLogs: {
    actions: ['dynamodb:PutItem'],
    indexes: false,
    leadingKeys: [keys.requestLogsOfTenant({ sellerId: 0, environment: 'test' }).replace(/#0#test#/, '#*#')],
  },
} as const;

export type TableAccess = keyof typeof TABLE_ACCESS;

/**
 * What a function calls. Reading its own trigger (stream records, queue messages) is granted by the
 * trigger wiring in triggers.ts, not here.
 */
export interface FunctionNeeds {
  table: TableAccess | 'none';
  /** events:PutEvents on the service bus. */
  publishesEvents?: true;
  /** sqs:SendMessage on the webhook delivery queue (first attempts and re-delayed hops). */
  enqueuesDeliveries?: true;
  /** Creates and deletes one-time schedules in the service's group, passing the scheduler role. */
  schedulesJobs?: true;
  /** ses:SendEmail from the stack's sender identity, through its configuration set. */
  sendsMail?: true;
  /** sms-voice:SendTextMessage from the account's origination identities (reminders by SMS). */
  sendsMessages?: true;
  /** kms:Decrypt with the provider-keys key: charges a live seller through its connected account. */
  decryptsProviderKeys?: true;
  /** kms:Encrypt and Decrypt with the provider-keys key: stores a seller's provider API key. */
  encryptsProviderKeys?: true;
  /** secretsmanager:GetSecretValue on these secrets (shared/secrets.ts), and their ARNs in its environment. */
  secrets?: readonly SecretName[];
}

/**
 * An endpoint group reads and writes the table unless FUNCTION_NEEDS says less: a group whose use
 * cases only read is `read` (its routes' pipeline writes are derived from its route rows), one
 * that never touches the table `none`.
 */
export const HTTP_DEFAULT_NEEDS: FunctionNeeds = { table: 'readWrite' };

/**
 * Exceptions to the HTTP default, and every async function (they have no default: each consumer
 * states what it touches). The transactions and checkout groups schedule expiries (a pix charge,
 * a session, a saved card's first step); the jobs function schedules a card's next step.
 */
export const FUNCTION_NEEDS: Record<string, FunctionNeeds> = {
  health: { table: 'getItem' },
  // The OpenAPI document and its reference page are files in the bundle; their routes count nothing.
  docs: { table: 'none' },
  // The hosted pages render what they read; only their per-IP counter is written.
  pages: { table: 'read' },
  // Live sales, cancels and refunds decrypt the seller's provider key (issue 16). The sandbox's signed
  // notifications are verified here, and its boletos issued (the PDF link's key) and served. An
  // anonymous card sale is guarded against card testing (fingerprints, proofs of work).
  transactions: {
    table: 'readWrite',
    schedulesJobs: true,
    decryptsProviderKeys: true,
    secrets: ['gatewayWebhook', 'boletoPdf', 'cardTesting'],
  },
  // The sandbox helpers pay, fail and charge back by sending the sandbox's signed notification. A
  // test clock's advance runs the due jobs on it (renewals, issuance: a boleto's link, a pix's
  // expiry schedule); a clock's creation schedules its deletion 30 days on; a sandbox tenant's mail
  // and messages are kept in the table, never sent.
  'test-helpers': { table: 'readWrite', schedulesJobs: true, secrets: ['gatewayWebhook', 'boletoPdf'] },
  // Connecting stores the seller's Asaas key encrypted; its webhooks may cancel or refund a charge,
  // and what they pay (a subscription, a scheduled-charge cycle, a carnê installment) schedules its due job.
  'provider-connections': { table: 'readWrite', schedulesJobs: true, encryptsProviderKeys: true },
  // Deleting a saved card cancels its pending expiry schedule.
  customers: { table: 'readWrite', schedulesJobs: true, decryptsProviderKeys: true },
  // A session's expiry is a one-time schedule made when the session is created. Its page pays by
  // boleto too, and its sandbox helper pays a pending pix or boleto with a signed notification. Its
  // card payments are guarded against card testing (fingerprints, proofs of work).
  checkout: {
    table: 'readWrite',
    schedulesJobs: true,
    decryptsProviderKeys: true,
    secrets: ['gatewayWebhook', 'boletoPdf', 'cardTesting'],
  },
  // Every subscription change that sets a new due time (a trial end, a renewal) schedules its due job.
  subscriptions: { table: 'readWrite', schedulesJobs: true, decryptsProviderKeys: true },
  // A scheduled charge's changes schedule its due job; creating one runs its due step at once, which
  // issues a pix or boleto due soon and may send the day's reminder (SES, WhatsApp, SMS for live
  // tenants). Its reminder-channel routes store a seller's WhatsApp token encrypted.
  'scheduled-charges': {
    table: 'readWrite',
    schedulesJobs: true,
    sendsMail: true,
    sendsMessages: true,
    encryptsProviderKeys: true,
    secrets: ['boletoPdf'],
  },
  // A carnê's changes schedule its due job (issuance 10 days ahead, due_today, overdue, reminders,
  // the grace of installment 1); a live seller's boletos are registered with its decrypted Asaas key.
  // Mail is sent by the jobs function.
  'installment-plans': {
    table: 'readWrite',
    schedulesJobs: true,
    decryptsProviderKeys: true,
    secrets: ['boletoPdf'],
  },
  // A saved card's expiry step schedules the next one (30, 14, 7 days, then the expiry itself); a
  // scheduled charge's and a carnê's due jobs send their reminders, and issue their boletos.
  jobs: {
    table: 'readWrite',
    schedulesJobs: true,
    sendsMail: true,
    sendsMessages: true,
    decryptsProviderKeys: true,
    secrets: ['boletoPdf'],
  },
  // Writes the request-log lines the HTTP functions' log groups hand it; reads nothing.
  'request-log': { table: 'appendRequestLogs' },
  // Reads outbox items from the stream records themselves; never touches the table.
  'outbox-publisher': { table: 'none', publishesEvents: true },
  'webhook-fanout': { table: 'readWrite', enqueuesDeliveries: true },
  'webhook-delivery': { table: 'readWrite', enqueuesDeliveries: true },
  // Portal actions schedule subscription work (a reactivation's renewal, a cancellation's end) and
  // send the customer's cancellation and card-change e-mails themselves (SES for live tenants).
  // Its new-card form is guarded against card testing as the checkout's is.
  portal: {
    table: 'readWrite',
    schedulesJobs: true,
    sendsMail: true,
    decryptsProviderKeys: true,
    secrets: ['cardTesting'],
  },
  // A pay link's card or trial card, and a payment-method change, save the charge and schedule its due job
  // (and a kept card's expiry step, an issued pix's expiry); its page issues the cycle's boleto. Its
  // card form is guarded against card testing.
  'charge-payments': {
    table: 'readWrite',
    schedulesJobs: true,
    decryptsProviderKeys: true,
    secrets: ['boletoPdf', 'cardTesting'],
  },
  // The customer area (issue 15) seals and opens magic links with the secret's key and e-mails them.
  'customer-area': { table: 'readWrite', sendsMail: true, secrets: ['magicLink'] },
  // Team invitations are e-mailed by the dashboard's own routes (Cognito mails the account codes itself).
  auth: { table: 'readWrite', sendsMail: true },
  // Receipts: the once-per-event marker in the table, then SES for live tenants' mail.
  notifications: { table: 'readWrite', sendsMail: true },
  // Brings the table's data to the code's format at each deployment (the only Scan).
  migrations: { table: 'migrate' },
};

export function needsOf(name: string, kind: 'http' | 'async'): FunctionNeeds {
  const declared = FUNCTION_NEEDS[name];
  if (declared) return declared;
  if (kind === 'http') return HTTP_DEFAULT_NEEDS;
  throw new Error(`async function ${name} has no entry in FUNCTION_NEEDS (infra/constructs/permissions.ts)`);
}

/** The secrets a function is granted (the local runtime refuses it the others, as IAM does). */
export function secretsOf(name: string): readonly SecretName[] {
  return (FUNCTION_NEEDS[name] ?? HTTP_DEFAULT_NEEDS).secrets ?? [];
}

/** One IAM statement on the table; `leadingKeys` limits it to partitions starting with these patterns. */
export interface TableGrant {
  actions: readonly string[];
  indexes: boolean;
  leadingKeys?: readonly string[];
}

/** `RATE#ip:1.2.3.4` → `RATE#*`: the entity prefix of a partition key, as an IAM StringLike pattern. */
const partitionPattern = (pk: string) => `${pk.slice(0, pk.indexOf('#') + 1)}*`;

/** The writes the HTTP pipeline makes before a handler runs, each on its own partitions. */
const PIPELINE_WRITES = {
  /** A public route's per-IP counter, a JWT's per-subject counter, failed authentications, a seller's keys. */
  rateCounter: { actions: ['dynamodb:UpdateItem'], partition: partitionPattern(keys.rate('ip:x').pk) },
  /** An API key counts its requests in its own item (authentication and rate limit in one write). */
  apiKeyCounter: { actions: ['dynamodb:UpdateItem'], partition: partitionPattern(keys.apiKey('x').pk) },
  /** X-Idempotency-Key: the claim, the stored answer, the release of a failed claim. */
  idempotency: {
    actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    partition: partitionPattern(keys.idempotency('x', 'y').pk),
  },
} as const;

type PipelineWrite = keyof typeof PIPELINE_WRITES;

function pipelineWritesOfRoute(route: Route): PipelineWrite[] {
  // A signature writes nothing of its own: its failures are counted as every scheme's (rateCounter).
  const unmapped = route.auth.filter((s) => !['apiKey', 'jwt', 'panel', 'signature'].includes(s));
  if (unmapped.length > 0)
    throw new Error(
      `${route.method} ${route.path} authenticates by ${unmapped.join(', ')}, which writes its own items: its group must be readWrite`,
    );
  const writes: PipelineWrite[] = [];
  const public_ = route.auth.length === 0;
  // An authenticated route counts its caller's failed authentications per IP and its seller's
  // requests across keys (RATE# items, issue 31), whatever the scheme.
  if (!public_ || route.rateLimited !== false) writes.push('rateCounter');
  if (route.auth.includes('apiKey')) writes.push('apiKeyCounter');
  if (route.idempotent) writes.push('idempotency');
  return writes;
}

/**
 * What the pipeline writes for a group's routes (derived from the rows: auth schemes, rate limit,
 * idempotency), as one statement limited to those partitions; null when it writes nothing.
 */
export function pipelineWritesOf(routes: readonly Route[]): TableGrant | null {
  const used = [...new Set(routes.flatMap(pipelineWritesOfRoute))];
  if (used.length === 0) return null;
  return {
    actions: [...new Set(used.flatMap((w) => PIPELINE_WRITES[w].actions))],
    indexes: false,
    leadingKeys: used.map((w) => PIPELINE_WRITES[w].partition),
  };
}

/**
 * The table statements of a function: its declared level, plus, for a read-only group, the writes
 * its routes' pipeline makes. A declaration its routes contradict (a write method in a read-only
 * group, a counted route in a group without table access) fails the synth.
 */
export function tableGrantsOf(
  name: string,
  needs: FunctionNeeds,
  routes: readonly Route[] = [],
): TableGrant[] {
  if (needs.table === 'readWrite') return [TABLE_ACCESS.readWrite];
  if (needs.table === 'migrate') return [TABLE_ACCESS.readWrite, TABLE_ACCESS.migrate];
  if (needs.table === 'appendRequestLogs') return [TABLE_ACCESS.appendRequestLogs];
  const writes = pipelineWritesOf(routes);
  if (needs.table === 'read') {
    const writing = routes.filter((r) => r.method !== 'GET');
    if (writing.length > 0)
      throw new Error(
        `${name} is read-only but answers ${writing.map((r) => `${r.method} ${r.path}`).join(', ')}`,
      );
    return writes ? [TABLE_ACCESS.read, writes] : [TABLE_ACCESS.read];
  }
  if (writes)
    throw new Error(
      `${name} has no table write access, but its routes count requests or keep idempotency records`,
    );
  return needs.table === 'getItem' ? [TABLE_ACCESS.getItem] : [];
}
