import * as z from 'zod';
import { eventResponse } from '#shared/domain/events/log-responses';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { dashboardSummary } from './summary';

const reais = (what: string) => z.number().describe(`${what}, in Reais (decimal, e.g. 49.9)`);
const date = () => z.iso.date();

const figures = (what: string) =>
  z
    .object({
      gross: reais('What buyers paid and kept paid (refunds and open chargebacks taken out)'),
      net: reais("What reaches the seller: net of the fee and the affiliate's commission, less returns"),
      count: z.number().int().describe('Paid sales'),
    })
    .describe(what);

const methodFigures = z.lazy(() => figures('The same three for one method').meta({ id: 'DashboardFigures' }));

export const dashboardSummaryResponse = z.lazy(() =>
  z
    .object({
      from: date(),
      to: date(),
      today: date().describe('Today in America/Sao_Paulo: "a receber" and what falls due start here'),
      gross: reais('Sales of the range kept paid'),
      net: reais("The seller's net of the range"),
      count: z.number().int().describe('Paid sales of the range (a sale counts on the day it was created)'),
      averageTicket: reais('gross / count (0 without sales)'),
      declined: z.number().int().describe('Payments declined in the range'),
      approvalRate: z
        .number()
        .nullable()
        .describe('count / (count + declined), 0..1; null when nothing was attempted'),
      byMethod: z.object({
        pix: methodFigures,
        boleto: methodFigures,
        card: methodFigures,
        pixAutomatic: methodFigures,
      }),
      byDay: z
        .array(
          z.object({
            date: date(),
            gross: reais('Gross of the day'),
            net: reais('Net of the day'),
            count: z.number().int(),
          }),
        )
        .describe('Every day of the range, in order (days without sales carry zeros)'),
      receivables: z.object({
        until: date(),
        total: reais('Everything expected from today to `until`'),
        days: z
          .array(
            z.object({
              date: date(),
              pendingPix: reais('Pix still pending that expire this day (net)'),
              pendingBoleto: reais('Boletos still pending due this day (net)'),
              card: reais('Card sales settling this day (D+30, net)'),
              boletoClearing: reais('Boletos paid, clearing this day (D+1, net)'),
              total: reais('The day'),
            }),
          )
          .describe('Days with something expected, in order'),
      }),
      upcoming: z.object({
        scheduledCharges: z.object({
          totalCount: z.number().int(),
          items: z.array(
            z.object({ id: z.string(), customerName: z.string(), amount: reais('Amount'), dueDate: date() }),
          ),
        }),
        installments: z.object({
          more: z.boolean().describe('More carnês are open than were looked at'),
          items: z.array(
            z.object({
              planUuid: z.string(),
              number: z.number().int(),
              of: z.number().int(),
              customerName: z.string(),
              amount: reais('Installment'),
              dueDate: date(),
            }),
          ),
        }),
        renewals: z.object({
          more: z.boolean().describe('More subscriptions are active than were looked at'),
          items: z.array(
            z.object({
              subscriptionId: z.number().int(),
              customerName: z.string(),
              amount: reais('Renewal'),
              date: date(),
            }),
          ),
        }),
      }),
      recentActivity: z.array(eventResponse).describe('The latest events, newest first'),
    })
    .meta({
      id: 'DashboardSummary',
      description:
        "The seller's home: sales of a range from the daily figures, a receber, what falls due, recent activity",
    }),
);

type _Summary = Assert<
  Equals<z.output<typeof dashboardSummaryResponse>, Awaited<ReturnType<typeof dashboardSummary>>>
>;
