import type { CheckoutView } from '#shared/domain/checkout/public';
import { SESSION_ID_PREFIX } from '#shared/domain/checkout/session';
import { opaqueId } from '#shared/domain/params';
import { NotFoundError } from '#shared/errors';
import { looksLikeUuid } from '#shared/ids';
import { renderCheckoutPage, renderNotFoundPage } from './checkout-page';

export interface PageDeps {
  /** The public checkout view of a product uuid or a `cs_` id; NotFoundError when there is none. */
  checkoutView: (ref: string) => Promise<CheckoutView>;
}

export interface PageAnswer {
  status: 200 | 401 | 404;
  html: string;
}

/** `/pay/{uuid}` names products only and `/checkout/{id}` sessions only: a ref of the other kind is not found. */
const SHAPES = {
  product: (ref: string) => looksLikeUuid(ref),
  session: (ref: string) => ref.startsWith(SESSION_ID_PREFIX) && opaqueId.safeParse(ref).success,
} as const;

const notFound = (): PageAnswer => ({ status: 404, html: renderNotFoundPage() });

/** A hosted payment page: the buyer's view of a product link or a checkout session, or a 404 page. */
export async function checkoutPage(
  deps: PageDeps,
  kind: keyof typeof SHAPES,
  ref: string,
): Promise<PageAnswer> {
  if (!SHAPES[kind](ref)) return notFound();
  const view = await deps.checkoutView(ref).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (!view || view.kind !== kind) return notFound();
  return { status: 200, html: renderCheckoutPage(view) };
}
