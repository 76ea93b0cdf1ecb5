import { formatCalendarDay, saoPauloDate } from '#shared/dates';
import type { CycleStatus } from '#shared/domain/scheduled-charges/charge';
import type { PayLinkView } from '#shared/domain/scheduled-charges/pay-link';
import { NotFoundError } from '#shared/errors';
import { footer, type PageBrand, pageLayout } from './checkout-page';
import { formatBrl } from './format';
import { html, type SafeHtml, safeUrl } from './html';
import type { PageAnswer } from './page';
import { cardText, formatSaoPauloDay, intervalText } from './portal-format';

/**
 * The hosted page of a scheduled charge's pay link (`/cobranca/{payToken}`, pt-BR): the cycle's
 * amount, due date and status, its pix (QR code and copia e cola) and boleto (linha digitável and
 * PDF) as issued, and the card form when the link takes a card. The checkout's style sheet; the
 * script (copy buttons, the card form) only when there is something for it to do.
 */

export const CHARGE_ASSET_PATH = '/cobranca/assets';

const STATUS_LABELS: Record<CycleStatus, string> = {
  scheduled: 'Em aberto',
  due_today: 'Vence hoje',
  overdue: 'Vencida',
  paid: 'Paga',
  failed: 'Não paga',
  canceled: 'Cancelada',
};

const layout = (title: string, body: SafeHtml, withScript: boolean, brand: PageBrand | null = null) =>
  pageLayout(title, body, withScript ? `${CHARGE_ASSET_PATH}/charge.js` : null, brand);

const sellerOf = (view: PayLinkView) => view.seller.name.trim();

/** What the charge is for; a charge with neither product nor description is the seller's charge. */
const titleOf = (view: PayLinkView) =>
  view.product?.name ?? view.description ?? (sellerOf(view) ? `Cobrança de ${sellerOf(view)}` : 'Cobrança');

/** The tab's title: `Aulas · Cobrança`, or the title alone when it already says Cobrança. */
const documentTitle = (view: PayLinkView) =>
  view.product?.name || view.description ? `${titleOf(view)} · Cobrança` : titleOf(view);

const EVERY: Record<NonNullable<PayLinkView['recurrence']>['interval'], string> = {
  week: 'semanais',
  month: 'mensais',
  year: 'anuais',
};

/**
 * What a recurring series commits the customer to, beside this cycle's number:
 * `parcela 1 de 6 · 6 cobranças mensais`, `parcela 2 · cobranças mensais até 10/09/2027`,
 * `parcela 1 · cobranças mensais, sem data para terminar`.
 */
export function commitmentText(
  recurrence: NonNullable<PayLinkView['recurrence']>,
  cycleNumber: number,
): string {
  const every =
    recurrence.intervalCount === 1
      ? `cobranças ${EVERY[recurrence.interval]}`
      : `cobranças ${intervalText(recurrence.interval, recurrence.intervalCount)}`;
  const total = recurrence.endAfterCycles;
  // A series ends by a count or by a date, never both (the create schema refuses both).
  if (total !== null) return `parcela ${cycleNumber} de ${total} · ${total} ${every}`;
  if (recurrence.endDate)
    return `parcela ${cycleNumber} · ${every} até ${formatCalendarDay(recurrence.endDate)}`;
  return `parcela ${cycleNumber} · ${every}, sem data para terminar`;
}

function header(view: PayLinkView) {
  const recurring = view.recurrence
    ? html`<p class="hint" id="charge-recurrence">Cobrança recorrente: ${commitmentText(view.recurrence, view.cycleNumber)}</p>`
    : '';
  return html`<header class="product">
<div class="product-text">
<h1 class="product-name" id="charge-title">${titleOf(view)}</h1>
${view.product && view.description ? html`<p class="product-description" id="charge-description">${view.description}</p>` : ''}
<p class="price" id="charge-amount">${formatBrl(view.amount)}</p>
${recurring}
<p id="charge-due">Vencimento: <strong>${formatCalendarDay(view.dueDate)}</strong></p>
<p id="charge-status" data-status="${view.status}">Situação: <strong>${STATUS_LABELS[view.status]}</strong></p>
<p class="hint" id="charge-customer">Para: ${view.customer.name}</p>
</div>
</header>`;
}

const sandboxBanner = (view: PayLinkView) =>
  view.environment === 'test'
    ? html`<p class="sandbox" role="note">Ambiente de teste: nenhuma cobrança real será feita.</p>`
    : '';

/** The last Sao Paulo day a pix is payable on: its expiry is the start of the day after. */
const lastPayableDay = (expiresAt: string) =>
  formatSaoPauloDay(new Date(Date.parse(expiresAt) - 1).toISOString());

/**
 * One date rule on the page: the due date is the date the customer pays by. A pix that stays
 * payable after it says so as a grace ("ainda é aceito até"), never as a second deadline.
 */
function pixDeadline(pix: NonNullable<PayLinkView['pix']>, dueDate: string): string {
  const due = formatCalendarDay(dueDate);
  const last = lastPayableDay(pix.expiresAt);
  const lastIso = saoPauloDate(new Date(Date.parse(pix.expiresAt) - 1));
  return lastIso > dueDate
    ? `Pague até o vencimento, ${due}. Depois dele, este Pix ainda é aceito até ${last}.`
    : `Pague até ${last}.`;
}

function pixSection(pix: NonNullable<PayLinkView['pix']>, dueDate: string) {
  return html`<section class="box" id="pay-pix">
<h2>Pague com Pix</h2>
<p class="hint">Abra o app do seu banco, escolha pagar com Pix e leia o QR Code ou cole o código.</p>
<img class="qr" id="pix-qr" src="${pix.qrCodeImage}" alt="QR Code Pix" width="240" height="240">
<label for="pix-code">Pix copia e cola</label>
<textarea id="pix-code" readonly rows="4">${pix.qrCode}</textarea>
<button type="button" class="secondary" data-copy="pix-code">Copiar</button>
<p class="hint" id="pix-expires">${pixDeadline(pix, dueDate)}</p>
</section>`;
}

/** The boleto híbrido's pix: its QR code and copia e cola, paid instead of the boleto. */
function boletoPixBlock(boleto: NonNullable<PayLinkView['boleto']>) {
  if (!boleto.pixQrCode || !boleto.pixQrCodeImage) return '';
  return html`<div id="boleto-pix">
<p class="hint">Ou pague este boleto com Pix, na hora: leia o QR Code ou cole o código no app do banco.</p>
<img class="qr" id="boleto-pix-qr" src="${boleto.pixQrCodeImage}" alt="QR Code Pix do boleto" width="240" height="240">
<label for="boleto-pix-code">Pix copia e cola do boleto</label>
<textarea id="boleto-pix-code" readonly rows="4">${boleto.pixQrCode}</textarea>
<button type="button" class="secondary" data-copy="boleto-pix-code">Copiar</button>
</div>`;
}

/** `withPix`: the boleto híbrido's pix is shown when the cycle has no pix section of its own. */
function boletoSection(boleto: NonNullable<PayLinkView['boleto']>, withPix: boolean) {
  const pdf = safeUrl(boleto.pdfUrl);
  return html`<section class="box" id="pay-boleto">
<h2>Boleto</h2>
<label for="boleto-line">Linha digitável</label>
<textarea id="boleto-line" readonly rows="2">${boleto.formattedLine}</textarea>
<button type="button" class="secondary" data-copy="boleto-line">Copiar</button>
${withPix ? boletoPixBlock(boleto) : ''}
${pdf ? html`<p><a class="button" id="boleto-pdf" href="${pdf}" target="_blank" rel="noopener noreferrer">Abrir boleto (PDF)</a></p>` : ''}
<p class="hint" id="boleto-due">Vencimento do boleto: ${formatCalendarDay(boleto.dueDate)}. A confirmação pode levar até 3 dias úteis.</p>
</section>`;
}

interface FieldOptions {
  id: string;
  label: string;
  type?: string;
  autocomplete: string;
  inputmode?: string;
  placeholder?: string;
  maxlength: number;
}

/** Inputs carry no `name`: submitted without the script, the form sends no card data anywhere. */
const field = (o: FieldOptions) => html`<div class="field">
<label for="${o.id}">${o.label}</label>
<input id="${o.id}" type="${o.type ?? 'text'}" autocomplete="${o.autocomplete}"${o.inputmode ? html` inputmode="${o.inputmode}"` : ''}${
  o.placeholder ? html` placeholder="${o.placeholder}"` : ''
} maxlength="${o.maxlength}" aria-describedby="${o.id}-error">
<p class="field-error" id="${o.id}-error" hidden></p>
</div>`;

function cardNote(view: PayLinkView): string {
  if (view.cardMode === 'save')
    return `Nada será cobrado agora. O cartão fica salvo com segurança e a primeira cobrança, de ${formatBrl(view.amount)}, acontece quando o período de teste terminar${view.trialEndsOn ? ` (${formatCalendarDay(view.trialEndsOn)})` : ''}.`;
  if (view.type === 'recurring')
    return sellerOf(view)
      ? `O cartão ficará salvo com ${sellerOf(view)}, com segurança, para as próximas cobranças desta série.`
      : 'O cartão ficará salvo com segurança para as próximas cobranças desta série.';
  return 'Pagamento à vista, em uma parcela.';
}

function cardSection(view: PayLinkView) {
  const label =
    view.cardMode === 'save'
      ? sellerOf(view)
        ? `Salvar cartão com ${sellerOf(view)}`
        : 'Salvar cartão'
      : `Pagar ${formatBrl(view.amount)}`;
  return html`<section class="box" id="pay-card">
<h2>Cartão de crédito</h2>
<form id="card-form" method="post" novalidate>
${field({ id: 'card-number', label: 'Número do cartão', autocomplete: 'cc-number', inputmode: 'numeric', placeholder: '0000 0000 0000 0000', maxlength: 23 })}
${field({ id: 'card-holder', label: 'Nome no cartão', autocomplete: 'cc-name', maxlength: 100 })}
<div class="row">
${field({ id: 'card-expiry', label: 'Validade', autocomplete: 'cc-exp', inputmode: 'numeric', placeholder: 'MM/AA', maxlength: 5 })}
${field({ id: 'card-cvv', label: 'CVV', type: 'password', autocomplete: 'cc-csc', inputmode: 'numeric', placeholder: '123', maxlength: 4 })}
</div>
<p class="hint" id="card-note">${cardNote(view)}</p>
<div class="form-error" id="form-error" role="alert" hidden></div>
<button type="submit" class="primary" id="pay-button">${label}</button>
<noscript><p class="form-error">Ative o JavaScript do navegador para pagar com cartão.</p></noscript>
</form>
</section>
<section class="box result success" id="result-success" role="status" hidden>
<h2 id="success-title"></h2>
<p id="success-detail"></p>
</section>`;
}

/** A card series whose cycle is charged on the saved card: said so, instead of a form. */
function savedCardNote(view: PayLinkView) {
  if (!view.savedCard || view.cardMode !== null || !view.methods.includes('card')) return '';
  const text = view.trialEndsOn
    ? `Cartão salvo: ${cardText(view.savedCard.brand, view.savedCard.last4)}. A primeira cobrança acontece quando o período de teste terminar (${formatCalendarDay(view.trialEndsOn)}).`
    : `Esta cobrança será feita automaticamente no cartão ${cardText(view.savedCard.brand, view.savedCard.last4)} no vencimento.`;
  return html`<section class="box" id="saved-card"><p>${text}</p></section>`;
}

function openPage(view: PayLinkView) {
  const failed =
    view.state === 'failed'
      ? html`<section class="box notice" id="failed-note" role="status"><p>O pagamento automático no cartão não foi aprovado. Pague pelas opções abaixo.</p></section>`
      : '';
  const options = [
    view.pix ? pixSection(view.pix, view.dueDate) : '',
    view.cardMode ? cardSection(view) : '',
    view.boleto ? boletoSection(view.boleto, view.pix === null) : '',
  ];
  return html`<main class="checkout" id="charge" data-state="${view.state}" data-token="${view.payToken}"${
    view.cardMode ? html` data-card-mode="${view.cardMode}"` : ''
  }>
${sandboxBanner(view)}
${header(view)}
${failed}
${savedCardNote(view)}
${options}
${footer(view.seller.name)}
</main>`;
}

const NOTICES: Record<'paid' | 'canceled' | 'paused', { title: string; text: string }> = {
  paid: { title: 'Cobrança paga', text: 'Esta cobrança já foi paga. Não é preciso pagar de novo.' },
  canceled: {
    title: 'Cobrança cancelada',
    text: 'O vendedor cancelou esta cobrança. Nada precisa ser pago.',
  },
  paused: {
    title: 'Cobrança pausada',
    text: 'O vendedor pausou esta cobrança. Quando ela for retomada, este link volta a aceitar o pagamento.',
  },
};

function closedPage(view: PayLinkView, state: keyof typeof NOTICES) {
  const n = NOTICES[state];
  const paidOn =
    state === 'paid' && view.paidAt
      ? html`<p id="paid-on">Pagamento registrado em ${formatSaoPauloDay(view.paidAt)}.</p>`
      : '';
  return html`<main class="checkout" id="charge" data-state="${state}">
${sandboxBanner(view)}
${header(view)}
<section class="box notice notice-${state}" id="notice" role="status">
<h2>${n.title}</h2>
<p>${n.text}</p>
${paidOn}
</section>
${footer(view.seller.name)}
</main>`;
}

/** The page of a pay link: open (with its payment options) or closed (paid, cancelled, paused). */
export function renderChargePage(view: PayLinkView): string {
  const title = documentTitle(view);
  const brand = view.seller.name ? view.seller : null;
  if (view.state === 'paid' || view.state === 'canceled' || view.state === 'paused')
    return layout(title, closedPage(view, view.state), false, brand);
  const scripted = view.cardMode !== null || view.pix !== null || view.boleto !== null;
  return layout(title, openPage(view), scripted, brand);
}

export function renderChargeNotFoundPage(): string {
  return layout(
    'Cobrança não encontrada',
    html`<main class="checkout" id="charge" data-state="not-found">
<section class="box notice" id="notice" role="status">
<h1>Cobrança não encontrada</h1>
<p>Confira o endereço recebido do vendedor. O link pode estar incompleto ou ter sido removido.</p>
</section>
</main>`,
    false,
  );
}

/** The page of a pay token: its view rendered, or the Portuguese 404 page for a token that names nothing. */
export async function chargePage(
  deps: { payLinkView: (payToken: string) => Promise<PayLinkView> },
  payToken: string,
): Promise<PageAnswer> {
  const view = await deps.payLinkView(payToken).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  return view
    ? { status: 200, html: renderChargePage(view) }
    : { status: 404, html: renderChargeNotFoundPage() };
}
