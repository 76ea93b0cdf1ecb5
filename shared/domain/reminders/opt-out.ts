import type { Deps } from '#shared/domain/deps';
import { type PageBrand, pageLayout } from '#shared/domain/pages/checkout-page';
import { html } from '#shared/domain/pages/html';
import type { PageAnswer } from '#shared/domain/pages/page';
import type { OptOutRef } from '#shared/domain/ports';
import { OPT_OUT_PATH } from './deliver';
import type { ReminderChannel } from './schedule';

/**
 * The opt-out link of each reminder (`/descadastro/{token}`): a page that asks, and a form that
 * stops the channel. The GET changes nothing, since mail scanners open links; the POST of the page's
 * button does. A token that names nothing, malformed or unknown, answers the same 404 page.
 */

const CHANNEL_NAMES: Record<ReminderChannel, string> = { email: 'e-mail', whatsapp: 'WhatsApp', sms: 'SMS' };
const TOKEN = /^optout_[A-Za-z0-9]{32}$/;

type OptOutDeps = Pick<Deps, 'reminderSettings' | 'clock'>;

const page = (title: string, body: ReturnType<typeof html>, brand: PageBrand | null = null) =>
  pageLayout(title, body, null, brand);

/** The seller whose reminders the link stops, as its business profile shows it (the page's bar and colour). */
async function sellerOf(deps: OptOutDeps, ref: OptOutRef) {
  const context = await deps.reminderSettings.read(ref.tenant);
  const name = context.businessName.trim();
  return {
    who: name || 'deste vendedor',
    brand: name ? { name, logoUrl: context.businessLogoUrl, brandColor: context.businessColor } : null,
  };
}

const notFound = (): PageAnswer => ({
  status: 404,
  html: page(
    'Link não encontrado',
    html`<main class="checkout" id="opt-out" data-state="not-found">
<section class="box notice" id="notice" role="status">
<h1>Link não encontrado</h1>
<p>Confira o endereço recebido. O link pode estar incompleto ou ter sido removido.</p>
</section>
</main>`,
  ),
});

async function find(deps: OptOutDeps, token: string) {
  return TOKEN.test(token) ? deps.reminderSettings.findOptOut(token) : null;
}

/** GET: asks whether to stop the channel's reminders. */
export async function optOutPage(deps: OptOutDeps, token: string): Promise<PageAnswer> {
  const ref = await find(deps, token);
  if (!ref) return notFound();
  const name = CHANNEL_NAMES[ref.channel];
  const seller = await sellerOf(deps, ref);
  return {
    status: 200,
    html: page(
      'Parar lembretes de cobrança',
      html`<main class="checkout" id="opt-out" data-state="ask">
<section class="box notice" id="notice">
<h1>Parar lembretes por ${name}</h1>
<p>Você deixará de receber lembretes de cobrança ${seller.brand ? `de ${seller.who}` : seller.who} por ${name}. As cobranças continuam valendo e podem ser pagas pelo link recebido.</p>
<form method="post" action="${OPT_OUT_PATH}/${token}">
<button type="submit" class="secondary">Parar lembretes por ${name}</button>
</form>
</section>
</main>`,
      seller.brand,
    ),
  };
}

/** POST: stops the channel for the customer; idempotent. */
export async function optOut(deps: OptOutDeps, token: string): Promise<PageAnswer> {
  const ref = await find(deps, token);
  if (!ref) return notFound();
  const [, seller] = await Promise.all([
    deps.reminderSettings.optOut(ref, deps.clock.now().toISOString()),
    sellerOf(deps, ref),
  ]);
  const name = CHANNEL_NAMES[ref.channel];
  return {
    status: 200,
    html: page(
      'Lembretes interrompidos',
      html`<main class="checkout" id="opt-out" data-state="done">
<section class="box notice" id="notice" role="status">
<h1>Pronto: lembretes por ${name} interrompidos</h1>
<p>Você não receberá mais lembretes de cobrança ${seller.brand ? `de ${seller.who}` : seller.who} por ${name}. Os outros canais continuam, cada um com o seu link para parar.</p>
</section>
</main>`,
      seller.brand,
    ),
  };
}
