/**
 * What each function may do, as data. The functions construct turns a declaration into IAM
 * statements; adding a capability to a function is a one-line change here, and a reviewer sees
 * every function's reach in one place.
 */

/** DynamoDB access levels. No level includes Scan: the design forbids it in requests and jobs. */
export const TABLE_ACCESS = {
  /** Health probes: one GetItem on a fixed key, nothing else. */
  getItem: { actions: ['dynamodb:GetItem'], indexes: false },
  /**
   * Everything a request or job does through the repositories: reads, queries on the GSIs,
   * conditional writes and the TransactWriteItems/TransactGetItems they are made of (IAM
   * authorises a transaction by its member actions, ConditionCheckItem among them).
   */
  readWrite: {
    actions: [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:ConditionCheckItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
    ],
    indexes: true,
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
  /** kms:Decrypt with the provider-keys key: charges a live seller through its connected account. */
  decryptsProviderKeys?: true;
  /** kms:Encrypt and Decrypt with the provider-keys key: stores a seller's provider API key. */
  encryptsProviderKeys?: true;
  /** secretsmanager:GetSecretValue on the magic-link secret: issues and opens customer-area links. */
  readsMagicLinkKey?: true;
  /** secretsmanager:GetSecretValue on the card-testing secret: guards a public card form. */
  readsCardTestingKey?: true;
}

/**
 * API functions authenticate (API key lookup), rate-limit (counter updates) and keep idempotency
 * records on every request, so read/write on the table is the floor for an endpoint group.
 */
export const HTTP_DEFAULT_NEEDS: FunctionNeeds = { table: 'readWrite' };

/**
 * Exceptions to the HTTP default, and every async function (they have no default: each consumer
 * states what it touches). The transactions and checkout groups schedule expiries (a pix charge,
 * a session, a saved card's first step); the jobs function schedules a card's next step.
 */
export const FUNCTION_NEEDS: Record<string, FunctionNeeds> = {
  health: { table: 'getItem' },
  // Live sales, cancels and refunds decrypt the seller's provider key (issue 16).
  // An anonymous card sale is guarded against card testing (fingerprints, proofs of work).
  transactions: {
    table: 'readWrite',
    schedulesJobs: true,
    decryptsProviderKeys: true,
    readsCardTestingKey: true,
  },
  // Connecting stores the seller's Asaas key encrypted; its webhooks may cancel or refund a charge,
  // and what they pay (a subscription, a scheduled-charge cycle, a carnê installment) schedules its due job.
  'provider-connections': { table: 'readWrite', schedulesJobs: true, encryptsProviderKeys: true },
  // Deleting a saved card cancels its pending expiry schedule.
  customers: { table: 'readWrite', schedulesJobs: true, decryptsProviderKeys: true },
  // A session's expiry is a one-time schedule made when the session is created.
  // Its hosted page's card payments are guarded against card testing.
  checkout: {
    table: 'readWrite',
    schedulesJobs: true,
    decryptsProviderKeys: true,
    readsCardTestingKey: true,
  },
  // Every subscription change that sets a new due time (a trial end, a renewal) schedules its due job.
  subscriptions: { table: 'readWrite', schedulesJobs: true, decryptsProviderKeys: true },
  // A scheduled charge's changes schedule its due job; creating one runs its due step at once, which
  // issues a pix or boleto due soon and may send the day's reminder (SES for live tenants).
  'scheduled-charges': {
    table: 'readWrite',
    schedulesJobs: true,
    sendsMail: true,
    decryptsProviderKeys: true,
  },
  // A carnê's changes schedule its due job (issuance 10 days ahead, due_today, overdue, reminders,
  // the grace of installment 1); a live seller's boletos are registered with its decrypted Asaas key.
  // Mail is sent by the jobs function.
  'installment-plans': { table: 'readWrite', schedulesJobs: true, decryptsProviderKeys: true },
  // A saved card's expiry step schedules the next one (30, 14, 7 days, then the expiry itself); a
  // scheduled charge's and a carnê's due jobs send their reminders.
  jobs: { table: 'readWrite', schedulesJobs: true, sendsMail: true, decryptsProviderKeys: true },
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
    readsCardTestingKey: true,
  },
  // A pay link's card or trial card, and a payment-method change, save the charge and schedule its due job
  // (and a kept card's expiry step, an issued pix's expiry). Its card form is guarded against card testing.
  'charge-payments': {
    table: 'readWrite',
    schedulesJobs: true,
    decryptsProviderKeys: true,
    readsCardTestingKey: true,
  },
  // The customer area (issue 15) seals and opens magic links with the secret's key and e-mails them.
  'customer-area': { table: 'readWrite', sendsMail: true, readsMagicLinkKey: true },
  // Receipts: the once-per-event marker in the table, then SES for live tenants' mail.
  notifications: { table: 'readWrite', sendsMail: true },
};

export function needsOf(name: string, kind: 'http' | 'async'): FunctionNeeds {
  const declared = FUNCTION_NEEDS[name];
  if (declared) return declared;
  if (kind === 'http') return HTTP_DEFAULT_NEEDS;
  throw new Error(`async function ${name} has no entry in FUNCTION_NEEDS (infra/constructs/permissions.ts)`);
}
