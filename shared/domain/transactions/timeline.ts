import type { Deps } from '#shared/domain/deps';
import { EVENT_RETENTION_DAYS } from '#shared/domain/events/event-log';
import type { DomainEvent } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';
import { toDeliveryView } from '#shared/domain/webhooks/deliveries';
import { centavosToReais } from '#shared/money';
import { getTransaction } from './manage';
import type { Transaction } from './transaction';

export type TimelineDeps = Pick<Deps, 'transactions' | 'events' | 'clock'>;

/** Event-log pages a timeline reads at most (100 events each) looking for the transaction's events. */
const MAX_EVENT_PAGES = 5;

type Step = 'created' | 'paid' | 'failed' | 'refunded' | 'canceled' | 'chargeback_opened' | 'chargeback_won';

/**
 * What happened to the transaction, from its own record (kept for ever, unlike the 30-day event
 * log): created, paid, failed, each refund, canceled, a chargeback opened and won; oldest first.
 */
function statusChangesOf(t: Transaction) {
  const steps: { step: Step; at: string; amount: number | null; detail: string | null }[] = [
    { step: 'created', at: t.createdAt, amount: centavosToReais(t.value), detail: null },
  ];
  if (t.paidAt) steps.push({ step: 'paid', at: t.paidAt, amount: null, detail: null });
  if (t.failureCode && t.status === 'denied')
    steps.push({ step: 'failed', at: t.updatedAt, amount: null, detail: t.failureReason ?? t.failureCode });
  for (const r of t.refunds)
    steps.push({ step: 'refunded', at: r.createdAt, amount: centavosToReais(r.amount), detail: r.reason });
  if (t.canceledAt) steps.push({ step: 'canceled', at: t.canceledAt, amount: null, detail: null });
  if (t.chargeback) {
    steps.push({ step: 'chargeback_opened', at: t.chargeback.openedAt, amount: null, detail: null });
    if (t.chargeback.closedAt)
      steps.push({ step: 'chargeback_won', at: t.chargeback.closedAt, amount: null, detail: null });
  }
  return steps.sort((a, b) => a.at.localeCompare(b.at));
}

/** The transaction's events still in the log (30 days), oldest first: those whose payload is this transaction. */
async function eventsOf(deps: TimelineDeps, t: Transaction): Promise<DomainEvent[]> {
  const now = deps.clock.now();
  const oldest = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  const from = t.createdAt > oldest ? t.createdAt : oldest;
  const found: DomainEvent[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_EVENT_PAGES; pages++) {
    const page = await deps.events.list(t.tenant, {
      resourceId: String(t.id),
      from,
      to: now.toISOString(),
      limit: 100,
      cursor,
    });
    // Other resources share numeric ids (a product 7, a transaction 7): the payload's uuid decides.
    found.push(...page.items.filter((e) => (e.envelope.data as { uuid?: unknown })?.uuid === t.uuid));
    cursor = page.cursor;
    if (!cursor) break;
  }
  return found.reverse();
}

/**
 * GET /api/transactions/{id}/timeline: the provider's ids, the status changes, and each event of the
 * transaction with its webhook deliveries (one read per event, in parallel).
 */
export async function transactionTimeline(deps: TimelineDeps, tenant: Tenant, id: string) {
  const t = await getTransaction(deps, tenant, id);
  const events = await eventsOf(deps, t);
  const detailed = await Promise.all(events.map((e) => deps.events.get(tenant, e.envelope.id)));
  return {
    id: t.id,
    provider: {
      name: t.provider,
      gatewayPayId: t.gatewayPayId,
      pixTxid: t.pix?.txid ?? null,
      boletoBarcode: t.boleto?.barcode ?? null,
    },
    statusChanges: statusChangesOf(t),
    events: events.map((e, i) => ({
      id: e.envelope.id,
      event: e.envelope.event,
      timestamp: e.envelope.timestamp,
      deliveries: (detailed[i]?.deliveries ?? []).map(toDeliveryView),
    })),
  };
}
