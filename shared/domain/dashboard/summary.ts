import * as z from 'zod';
import { addDays, daysBetween, isCalendarDate, saoPauloDate } from '#shared/dates';
import type { Deps } from '#shared/domain/deps';
import type { DomainEvent } from '#shared/domain/events/events';
import { OPEN_INSTALLMENT_STATUSES } from '#shared/domain/installment-plans/plan';
import { dateField } from '#shared/domain/scheduled-charges/schemas';
import type { Tenant } from '#shared/domain/tenant';
import { centavosToReais } from '#shared/money';
import { type DayFigures, emptyDay, FIGURE_METHODS, type FigureMethod, RECEIVABLE_KINDS } from './figures';

/** The longest range the summary answers (a quarter): its figures stay one BatchGetItem. */
export const SUMMARY_MAX_DAYS = 92;
/** "A receber" and the charges due look this many days ahead of today. */
export const UPCOMING_DAYS = 30;
/** Each list of what falls due shows at most this many (the soonest the index gives), with a total. */
export const UPCOMING_LIMIT = 10;
/** Recent activity: the tenant's latest events. */
export const RECENT_EVENTS = 8;

export const summaryQuery = z
  .object({
    from: dateField('from').describe('First day of the range (America/Sao_Paulo), YYYY-MM-DD'),
    to: dateField('to').describe(
      `Last day of the range, YYYY-MM-DD; at most ${SUMMARY_MAX_DAYS} days in all`,
    ),
  })
  .strict()
  .superRefine((q, ctx) => {
    // Zod runs this after a field's own refusal too: only two real dates are compared.
    if (!isCalendarDate(q.from) || !isCalendarDate(q.to)) return;
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must not be before from' });
    else if (daysBetween(q.from, q.to) + 1 > SUMMARY_MAX_DAYS)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `to must be at most ${SUMMARY_MAX_DAYS} days after from (both included)`,
      });
  });

export type SummaryDeps = Pick<
  Deps,
  'transactions' | 'scheduledCharges' | 'installmentPlans' | 'subscriptions' | 'events' | 'clock'
>;

const money = (sums: { gross: number; net: number; count: number }) => ({
  gross: centavosToReais(sums.gross),
  net: centavosToReais(sums.net),
  count: sums.count,
});

function dayTotals(day: DayFigures) {
  let gross = 0;
  let net = 0;
  let count = 0;
  let declined = 0;
  for (const m of FIGURE_METHODS) {
    gross += day.sales[m].gross;
    net += day.sales[m].net;
    count += day.sales[m].count;
    declined += day.sales[m].declined;
  }
  return { gross, net, count, declined };
}

/**
 * GET /api/dashboard/summary: the seller's sales of `from`..`to` from the daily figures (O(days)
 * items), what is still to come in over the next 30 days, what falls due in them (scheduled charges,
 * carnê installments, renewals) and the latest events. Every read starts together.
 */
export async function dashboardSummary(
  deps: SummaryDeps,
  tenant: Tenant,
  query: z.output<typeof summaryQuery>,
) {
  const now = deps.clock.now();
  const today = saoPauloDate(now);
  const horizon = addDays(today, UPCOMING_DAYS);
  const [figures, charges, plans, subscriptions, events] = await Promise.all([
    deps.transactions.dailyFigures(tenant, [
      { from: query.from, to: query.to },
      { from: today, to: horizon },
    ]),
    deps.scheduledCharges.list(tenant, {
      statuses: ['scheduled', 'due_today'],
      dueDateFrom: today,
      dueDateTo: horizon,
      page: 1,
      limit: UPCOMING_LIMIT,
    }),
    deps.installmentPlans.list(tenant, {
      statuses: ['active', 'pending_activation'],
      page: 1,
      limit: UPCOMING_LIMIT,
    }),
    deps.subscriptions.list(tenant, { status: 'active', page: 1, limit: UPCOMING_LIMIT }),
    deps.events.list(tenant, {
      from: new Date(now.getTime() - UPCOMING_DAYS * 86_400_000).toISOString(),
      to: now.toISOString(),
      limit: RECENT_EVENTS,
    }),
  ]);
  const dayOf = (date: string) => figures.days.get(date) ?? emptyDay();

  const byDay = [];
  const byMethod = Object.fromEntries(
    FIGURE_METHODS.map((m) => [m, { gross: 0, net: 0, count: 0 }]),
  ) as Record<FigureMethod, { gross: number; net: number; count: number }>;
  const total = { gross: 0, net: 0, count: 0, declined: 0 };
  for (let date = query.from; date <= query.to; date = addDays(date, 1)) {
    const day = dayOf(date);
    const sums = dayTotals(day);
    byDay.push({ date, ...money(sums) });
    total.gross += sums.gross;
    total.net += sums.net;
    total.count += sums.count;
    total.declined += sums.declined;
    for (const m of FIGURE_METHODS) {
      byMethod[m].gross += day.sales[m].gross;
      byMethod[m].net += day.sales[m].net;
      byMethod[m].count += day.sales[m].count;
    }
  }

  const receivableDays = [];
  let receivableTotal = 0;
  for (let date = today; date <= horizon; date = addDays(date, 1)) {
    const r = dayOf(date).receivables;
    const sum = RECEIVABLE_KINDS.reduce((s, k) => s + r[k], 0);
    if (sum === 0) continue;
    receivableTotal += sum;
    receivableDays.push({
      date,
      pendingPix: centavosToReais(r.pendingPix),
      pendingBoleto: centavosToReais(r.pendingBoleto),
      card: centavosToReais(r.card),
      boletoClearing: centavosToReais(r.boletoClearing),
      total: centavosToReais(sum),
    });
  }

  const inWindow = (date: string) => date >= today && date <= horizon;
  const installments = plans.items.flatMap((p) =>
    p.installmentsDetail
      .filter((i) => OPEN_INSTALLMENT_STATUSES.includes(i.status) && inWindow(i.dueDate))
      .map((i) => ({
        planUuid: p.uuid,
        number: i.number,
        of: p.installments,
        customerName: p.customer.name,
        amount: centavosToReais(i.amount),
        dueDate: i.dueDate,
      })),
  );
  const renewals = subscriptions.items
    .filter((s) => !s.cancelAtPeriodEnd && inWindow(saoPauloDate(new Date(s.currentPeriodEnd))))
    .map((s) => ({
      subscriptionId: s.id,
      customerName: s.customer.name,
      amount: centavosToReais(s.price.unitAmount),
      date: saoPauloDate(new Date(s.currentPeriodEnd)),
    }));

  return {
    from: query.from,
    to: query.to,
    today,
    ...money(total),
    averageTicket: total.count ? centavosToReais(Math.round(total.gross / total.count)) : 0,
    declined: total.declined,
    approvalRate:
      total.count + total.declined
        ? Math.round((total.count / (total.count + total.declined)) * 10_000) / 10_000
        : null,
    byMethod: {
      pix: money(byMethod.pix),
      boleto: money(byMethod.boleto),
      card: money(byMethod.card),
      pixAutomatic: money(byMethod.pixAutomatic),
    },
    byDay,
    receivables: { until: horizon, total: centavosToReais(receivableTotal), days: receivableDays },
    upcoming: {
      scheduledCharges: {
        totalCount: charges.totalCount,
        items: charges.items.map((c) => ({
          id: c.id,
          customerName: c.customer.name,
          amount: centavosToReais(c.amount),
          dueDate: c.dueDate,
        })),
      },
      installments: {
        more: plans.totalCount > plans.items.length,
        items: sortByDate(installments, 'dueDate'),
      },
      renewals: {
        more: subscriptions.totalCount > subscriptions.items.length,
        items: sortByDate(renewals, 'date'),
      },
    },
    recentActivity: events.items.map(toActivity),
  };
}

const sortByDate = <T, K extends keyof T>(items: T[], key: K) =>
  items.sort((a, b) => (String(a[key]) < String(b[key]) ? -1 : String(a[key]) > String(b[key]) ? 1 : 0));

const toActivity = (e: DomainEvent) => ({
  id: e.envelope.id,
  event: e.envelope.event,
  timestamp: e.envelope.timestamp,
  data: e.envelope.data,
});
