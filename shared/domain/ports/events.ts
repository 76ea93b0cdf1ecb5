import type { DomainEvent } from '#shared/domain/events/events';
import type { Tenant } from '#shared/domain/tenant';
import type { WebhookDelivery } from '#shared/domain/webhooks/deliveries';

export interface EventLogQuery {
  type?: string;
  resourceId?: string;
  /** ISO instants, both included. */
  from: string;
  to: string;
  limit: number;
  cursor?: string;
}

/** The events a tenant's changes emitted, kept 30 days (the outbox items are the log). */
export interface EventLog {
  /** Newest first; `cursor` is absent on the last page. */
  list(tenant: Tenant, query: EventLogQuery): Promise<{ items: DomainEvent[]; cursor?: string }>;
  /** The event with each delivery of it; null when the tenant has no such event. */
  get(tenant: Tenant, id: string): Promise<{ event: DomainEvent; deliveries: WebhookDelivery[] } | null>;
}
