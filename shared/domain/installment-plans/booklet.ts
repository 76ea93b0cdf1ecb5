import { timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { saoPauloDate } from '#shared/dates';
import type { Deps } from '#shared/domain/deps';
import { type BookletSlip, boletoBookletPdf } from '#shared/domain/payments/boleto-booklet';
import { qrCodeModules } from '#shared/domain/payments/qr-image';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import type { Installment, InstallmentPlan } from './plan';
import { findPlan } from './queries';
import { effectiveDueDate, refused } from './state';

/**
 * The carnê as one printable booklet (every installment, three to an A4 page), for the seller and
 * on a public link the seller sends the customer (`/carne/{token}`). The token names its tenant and
 * plan and carries 190 random bits, stored on the plan: a link the seller revoked, of a canceled
 * plan or of no plan at all answers the same 404.
 */

export type BookletDeps = Pick<Deps, 'installmentPlans' | 'team' | 'clock' | 'ids' | 'publicBaseUrl'>;

export const BOOKLET_NOT_FOUND = 'Booklet not found';
const TOKEN_PREFIX = 'crn';
const TOKEN_SECRET_LENGTH = 32;
const BOOKLET_TOKEN = /^crn_(\d{1,15})_(test|live)_([0-9a-f-]{36})_[A-Za-z0-9]{32}$/;

export const bookletLinkResponse = z
  .object({
    url: z.string().nullable().describe('The public link (`/carne/{token}`); null when there is none'),
    createdAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'BookletLink', description: 'The public link of a carnê’s printable booklet' });
export type BookletLink = z.output<typeof bookletLinkResponse>;

const bookletUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/$/, '')}/carne/${token}`;

function slipOf(i: Installment): BookletSlip {
  const base = { number: i.number, amountCentavos: i.amount };
  if (i.status === 'paid')
    return {
      ...base,
      dueDate: i.dueDate,
      state: { kind: 'paid', paidOn: saoPauloDate(new Date(i.paidAt ?? 0)) },
    };
  if (i.status === 'canceled') return { ...base, dueDate: i.dueDate, state: { kind: 'canceled' } };
  if (i.boleto)
    return {
      ...base,
      dueDate: effectiveDueDate(i),
      state: { kind: 'boleto', digitableLine: i.boleto.barcodeLine },
    };
  return { ...base, dueDate: i.dueDate, state: { kind: 'not_issued' } };
}

/** An issued installment's slip with its boleto's pix QR code, to print beside the barcode. */
async function withPixQr(i: Installment): Promise<BookletSlip> {
  const slip = slipOf(i);
  const payload = i.boleto?.pixQrCode;
  if (slip.state.kind !== 'boleto' || !payload) return slip;
  return { ...slip, state: { ...slip.state, pixQr: { payload, modules: await qrCodeModules(payload) } } };
}

/** The booklet names the seller by its business profile (the name and colour its pages show). */
async function bookletOf(deps: Pick<BookletDeps, 'team'>, plan: InstallmentPlan): Promise<Buffer> {
  const [profile] = await deps.team.profiles([plan.tenant.sellerId]);
  return boletoBookletPdf({
    sellerName: profile?.name || `Vendedor ${plan.tenant.sellerId}`,
    brandColor: profile?.brandColor ?? null,
    payerName: plan.customer.name,
    installments: plan.installments,
    reference: plan.uuid,
    productName: plan.product.name,
    sandbox: plan.tenant.environment === 'test',
    slips: await Promise.all(plan.installmentsDetail.map(withPixQr)),
  });
}

/** GET /api/v1/installment-plans/{uuid}/booklet: the seller's booklet, whatever the plan's status. */
export async function sellerBooklet(deps: BookletDeps, tenant: Tenant, uuid: string): Promise<Buffer> {
  return bookletOf(deps, await findPlan(deps, tenant, uuid));
}

async function saveBooklet(deps: BookletDeps, plan: InstallmentPlan, booklet: InstallmentPlan['booklet']) {
  const next: InstallmentPlan = {
    ...plan,
    booklet,
    updatedAt: deps.clock.now().toISOString(),
    version: plan.version + 1,
  };
  await deps.installmentPlans.save(next, plan, { events: [] });
}

/**
 * POST …/booklet-link: the plan's public link, made on the first call and the same one after
 * (until revoked). A canceled plan has none to give (409).
 */
export async function shareBooklet(deps: BookletDeps, tenant: Tenant, uuid: string): Promise<BookletLink> {
  const plan = await findPlan(deps, tenant, uuid);
  if (plan.status === 'canceled') throw refused('shared', plan.status);
  let booklet = plan.booklet;
  if (!booklet) {
    booklet = {
      token: deps.ids.prefixed(
        `${TOKEN_PREFIX}_${tenant.sellerId}_${tenant.environment}_${plan.uuid}`,
        TOKEN_SECRET_LENGTH,
      ),
      createdAt: deps.clock.now().toISOString(),
    };
    await saveBooklet(deps, plan, booklet);
  }
  return { url: bookletUrl(deps.publicBaseUrl, booklet.token), createdAt: booklet.createdAt };
}

/** DELETE …/booklet-link: the link stops working at once (a new share makes another). */
export async function revokeBooklet(deps: BookletDeps, tenant: Tenant, uuid: string): Promise<BookletLink> {
  const plan = await findPlan(deps, tenant, uuid);
  if (plan.booklet) await saveBooklet(deps, plan, null);
  return { url: null, createdAt: null };
}

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** GET /carne/{token}: the booklet for whoever holds the link; anything else is the same 404. */
export async function publicBooklet(deps: BookletDeps, token: string): Promise<Buffer> {
  const m = BOOKLET_TOKEN.exec(token);
  const plan = m
    ? await deps.installmentPlans.get(
        { sellerId: Number(m[1]), environment: m[2] as Tenant['environment'] },
        m[3],
      )
    : null;
  if (!plan?.booklet || plan.status === 'canceled' || !sameToken(plan.booklet.token, token))
    throw new NotFoundError(BOOKLET_NOT_FOUND);
  return bookletOf(deps, plan);
}
