import type { Deps } from '#shared/domain/deps';
import { contrastRatio } from '#shared/domain/pages/portal-theme';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import { parseInput } from '#shared/validation';
import { businessProfileSchema } from './schemas';

/**
 * How the brand colour reads as a button with white text (WCAG 2 contrast on white). The pages pick
 * white or near-black text on it, whichever contrasts more (portal-theme.ts), so any colour stays
 * legible; the answer tells the seller when white text would not reach 4.5:1.
 */
const contrastOf = (brandColor: string | null) =>
  brandColor === null ? null : Math.round(contrastRatio(brandColor.slice(1), 'ffffff') * 100) / 100;

const answer = (p: { id: number; name: string; logoUrl: string | null; brandColor: string | null }) => ({
  name: p.name,
  logoUrl: p.logoUrl,
  brandColor: p.brandColor,
  contrastOnWhite: contrastOf(p.brandColor),
});

export async function getBusinessProfile(deps: Pick<Deps, 'team'>, tenant: Tenant) {
  const [profile] = await deps.team.profiles([tenant.sellerId]);
  if (!profile) throw new NotFoundError('Seller not found');
  return answer(profile);
}

/** Sets the name, logo and colour the hosted pages and the e-mails show. */
export async function updateBusinessProfile(
  deps: Pick<Deps, 'team' | 'clock'>,
  tenant: Tenant,
  input: unknown,
) {
  const body = parseInput(businessProfileSchema, input);
  const profile = { id: tenant.sellerId, ...body };
  await deps.team.updateProfile(profile, deps.clock.now());
  return answer(profile);
}
