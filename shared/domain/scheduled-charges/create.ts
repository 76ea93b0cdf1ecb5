import { addDays, saoPauloDate } from '#shared/dates';
import {
  CUSTOMER_COPY_TRIES,
  CustomerChangedError,
  type CustomerProfile,
} from '#shared/domain/customers/customer';
import { scheduleAtDue } from '#shared/domain/due-schedule';
import { readLateChargeDefaults, resolveLateCharges } from '#shared/domain/payments/late-charge-settings';
import type { CustomerAndProductReader, PortalConfigRepository } from '#shared/domain/ports';
import { PRODUCT_NOT_FOUND } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { onTestClock } from '#shared/domain/test-clocks/on-clock';
import { NotFoundError, ValidationError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import {
  type NewTimelineEntry,
  SCHEDULED_CHARGE_ID_LENGTH,
  SCHEDULED_CHARGE_PREFIX,
  type ScheduledCharge,
  toScheduledChargeView,
} from './charge';
import { advanceDue, type DueDeps } from './due';
import { offsetsFor } from './reminders';
import type { CreateScheduledChargeInput } from './schemas';
import { chargeDueJob, chargeEvent, deriveStatus, newCycle, nextDueAt } from './state';

export const CUSTOMER_NOT_FOUND = 'Customer not found';

export type CreateDeps = DueDeps & {
  customerAndProduct: CustomerAndProductReader;
  portalConfigs: PortalConfigRepository;
};

/** What a charge or a carnê keeps of its customer: the e-mail used with the seller, else the global one. */
export const customerSnapshot = (profile: CustomerProfile) => ({
  id: profile.id,
  uuid: profile.uuid,
  name: profile.name,
  email: profile.email || profile.globalEmail,
  document: profile.document,
});

/**
 * POST /api/v1/scheduled-charges: cycle 1 `scheduled` (the charge `scheduled`, `trial` or
 * `pending_tokenization`), timeline `created` (+ `trial_started`), webhooks
 * `scheduled_charge.created` (+ `customer.trial_started`). What is due at once (a pix or boleto
 * due within 5 days is issued now) runs right after the write, as the due job would; a failure
 * there leaves it to the job and the answer is the charge as written.
 */
export async function createScheduledCharge(
  deps: CreateDeps,
  tenant: Tenant,
  input: CreateScheduledChargeInput,
) {
  const reads = await Promise.all([
    deps.customerAndProduct.read(tenant, {
      customerId: input.customerId,
      productUuid: input.productId || undefined,
    }),
    readLateChargeDefaults(deps, tenant, input.productId ? { uuid: input.productId } : null),
    deps.reminderSettings.read(tenant, input.customerId),
  ]);
  // A sandbox customer on a test clock gets the charge in the clock's time, and the charge lives on it.
  return onTestClock(deps, tenant, reads[0].customer?.testClockId, () =>
    createFrom(deps, tenant, input, reads),
  );
}

type CreateReads = [
  Awaited<ReturnType<CustomerAndProductReader['read']>>,
  Awaited<ReturnType<typeof readLateChargeDefaults>>,
  Awaited<ReturnType<CreateDeps['reminderSettings']['read']>>,
];

async function createFrom(
  deps: CreateDeps,
  tenant: Tenant,
  input: CreateScheduledChargeInput,
  [{ customer: profile, product: found }, defaults, reminders]: CreateReads,
) {
  const now = deps.clock.now();
  const today = saoPauloDate(now);
  if (input.dueDate < today)
    throw new ValidationError(['dueDate must be today or later (America/Sao_Paulo)']);
  const trialEndsOn = input.trialDays ? addDays(today, input.trialDays - 1) : null;
  if (trialEndsOn && input.dueDate <= trialEndsOn)
    throw new ValidationError([`dueDate must be after the trial's last day (${trialEndsOn})`]);
  if (!profile) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  let product: ScheduledCharge['product'] = null;
  if (input.productId) {
    const mine =
      found &&
      found.tenant.sellerId === tenant.sellerId &&
      found.tenant.environment === tenant.environment &&
      found.isActive;
    if (!found || !mine) throw new NotFoundError(PRODUCT_NOT_FOUND);
    product = { id: found.id, uuid: found.uuid, name: found.name };
  }
  // Card cycles are charged at face value; the terms apply to the pix and boleto of each cycle.
  const lateCharges = resolveLateCharges(input, product ? defaults : { ...defaults, product: null }, {
    amount: input.amount,
    dueDate: input.dueDate,
  });
  const at = now.toISOString();
  const r = input.recurrence;
  const base: ScheduledCharge = {
    id: deps.ids.prefixed(`${SCHEDULED_CHARGE_PREFIX}${tenant.environment}`, SCHEDULED_CHARGE_ID_LENGTH),
    tenant,
    type: input.type,
    status: 'scheduled',
    customer: customerSnapshot(profile),
    product,
    description: input.description ?? null,
    amount: input.amount,
    methods: input.methods,
    dueDate: input.dueDate,
    anchorDate: input.dueDate,
    recurrence: r
      ? {
          interval: r.interval,
          intervalCount: r.intervalCount,
          endAfterCycles: r.endAfterCycles ?? null,
          endDate: r.endDate ?? null,
        }
      : null,
    trialDays: input.trialDays ?? 0,
    trialEndsOn,
    paymentMethod: null,
    cancelAtPeriodEnd: false,
    pausedAt: null,
    canceledAt: null,
    cycles: [],
    overdueCycles: 0,
    dueAt: null,
    testClockId: deps.clockScope?.current() ?? null,
    reminderOffsets: offsetsFor(reminders),
    timelineSeq: 0,
    lateCharges,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  let charge: ScheduledCharge = { ...base, cycles: [newCycle(deps, base, 1)] };
  charge.status = deriveStatus(charge, now);
  charge.dueAt = nextDueAt(charge, now);
  const trial = trialEndsOn !== null;
  const timeline: NewTimelineEntry[] = [
    {
      kind: 'created',
      cycleNumber: null,
      data: { amount: centavosToReais(input.amount), dueDate: input.dueDate },
    },
  ];
  if (trial)
    timeline.push({
      kind: 'trial_started',
      cycleNumber: null,
      data: { trialDays: input.trialDays, trialEndsOn },
    });
  charge.timelineSeq = timeline.length;
  // The customer read may be a copy of the profile: the write checks it, and is made again on the
  // stored profile when it changed since (issue 17).
  let seen = profile;
  for (let tries = 1; ; tries++) {
    try {
      const written = charge;
      await deps.atomically(async () => {
        await deps.customers.confirmUnchanged(seen);
        await deps.scheduledCharges.create(written, {
          events: [
            chargeEvent(deps, written, 'scheduled_charge.created'),
            ...(trial ? [chargeEvent(deps, written, 'customer.trial_started')] : []),
          ],
          timeline,
        });
      });
      break;
    } catch (error) {
      if (!(error instanceof CustomerChangedError) || tries >= CUSTOMER_COPY_TRIES) throw error;
      seen = error.current;
      charge = { ...charge, customer: customerSnapshot(seen) };
    }
  }
  await scheduleAtDue(deps, chargeDueJob(charge), charge.dueAt);
  let latest = charge;
  try {
    latest = (await advanceDue(deps, charge)) ?? charge;
  } catch (error) {
    deps.reporter.error('could not issue a new scheduled charge now; the due job will', error, {
      id: charge.id,
    });
  }
  return toScheduledChargeView(latest);
}
