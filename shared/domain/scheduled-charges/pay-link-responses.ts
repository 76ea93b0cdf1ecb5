import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { listAttempts } from './attempts';
import {
  ATTEMPT_SOURCES,
  ATTEMPT_STATUSES,
  CHARGE_METHODS,
  CHARGE_TYPES,
  CYCLE_STATUSES,
  RECURRENCE_INTERVALS,
} from './charge';
import type { payLinkView } from './pay-link';
import type { payLinkByCard } from './pay-link-card';

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export const attemptResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      cycleId: z.string().describe('`<chargeId>_c<n>`'),
      cycleNumber: z.number().int(),
      attemptNumber: z.number().int().describe('1.. within the cycle'),
      attemptedAt: z.iso.datetime(),
      source: z.enum(ATTEMPT_SOURCES).describe('`fallback_pix` is reserved and never emitted'),
      paymentMethod: z.enum(['card', 'pix', 'boleto', 'manual']),
      paymentMethodId: z.number().int().nullable().describe('Null when the saved card was deleted since'),
      cardLast4: z.string().nullable().describe('Taken at the attempt; survives the deletion of the card'),
      cardBrand: z.string().nullable(),
      status: z
        .enum(ATTEMPT_STATUSES)
        .describe('`declined` is the issuer’s answer, `errored` a technical failure'),
      failureCode: z
        .string()
        .nullable()
        .describe('Canonical: insufficient_funds, card_declined, expired_card, processing_error, …'),
      failureReason: z.string().nullable(),
      gatewayFailureCode: z.string().nullable().describe('The provider’s raw code'),
      gatewayChargeId: z.number().int().nullable(),
      transactionId: z.number().int().nullable(),
    })
    .meta({ id: 'ScheduledChargeAttempt', description: 'One try at collecting a cycle by card' }),
);

export const attemptListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(attemptResponse),
      count: z.number().int(),
      totalCount: z.number().int(),
      totalPages: z.number().int(),
    })
    .meta({ id: 'ScheduledChargeAttemptList', description: 'Attempts across the cycles, newest first' }),
);

export const payLinkViewResponse = z.lazy(() =>
  z
    .object({
      payToken: z.string(),
      state: z.enum(['open', 'paid', 'failed', 'canceled', 'paused']),
      status: z.enum(CYCLE_STATUSES),
      environment: z.enum(['test', 'live']),
      type: z.enum(CHARGE_TYPES),
      cycleNumber: z.number().int(),
      amount: z.number().describe('Reais'),
      dueDate: z.string(),
      description: z.string().nullable(),
      product: z.object({ name: z.string() }).nullable(),
      customer: z.object({ name: z.string() }),
      recurrence: z
        .object({
          interval: z.enum(RECURRENCE_INTERVALS),
          intervalCount: z.number().int(),
          endAfterCycles: z.number().int().nullable().describe('The series ends after this many cycles'),
          endDate: z.string().nullable().describe('No cycle is due after this date'),
        })
        .nullable(),
      methods: z.array(z.enum(CHARGE_METHODS)),
      trialEndsOn: z.string().nullable().describe('Set while the trial lasts'),
      paidAt: z.string().nullable(),
      pix: z.object({ qrCode: z.string(), qrCodeImage: z.string(), expiresAt: z.string() }).nullable(),
      boleto: z
        .object({
          digitableLine: z.string(),
          formattedLine: z.string(),
          dueDate: z.string(),
          pdfUrl: z.string(),
          pixQrCode: z
            .string()
            .nullable()
            .describe('The boleto híbrido: a pix BR Code for the same cycle; paying either settles it'),
          pixQrCodeImage: z.string().nullable().describe('An SVG data: URL of its QR code'),
        })
        .nullable(),
      cardMode: z
        .enum(['pay', 'save'])
        .nullable()
        .describe('`save`: a trial keeps the card without a charge'),
      savedCard: z.object({ brand: z.string(), last4: z.string() }).nullable(),
      seller: z
        .object({ name: z.string(), logoUrl: z.string().nullable(), brandColor: z.string().nullable() })
        .describe("The seller's business profile: the name, logo and colour the page shows"),
    })
    .meta({ id: 'PayLinkView', description: 'What the public pay link of a cycle shows' }),
);

export const payLinkCardResponse = z.lazy(() =>
  z
    .object({
      status: z.enum(['paid', 'card_saved', 'declined', 'failed']),
      card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
      failure: z.object({ code: z.string(), message: z.string() }).nullable(),
    })
    .meta({ id: 'PayLinkCardOutcome', description: 'The card form’s outcome (a decline is a 201 too)' }),
);

type _Attempts = Assert<Equals<z.output<typeof attemptListResponse>, Out<typeof listAttempts>>>;
type _View = Assert<Equals<z.output<typeof payLinkViewResponse>, Out<typeof payLinkView>>>;
type _Card = Assert<Equals<z.output<typeof payLinkCardResponse>, Out<typeof payLinkByCard>>>;
