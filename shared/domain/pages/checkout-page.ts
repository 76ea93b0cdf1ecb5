import type { CheckoutMethod, CheckoutView } from '#shared/domain/checkout/public';
import { formatBrl, installmentOptions } from './format';
import { html, type SafeHtml, safeUrl } from './html';
import { recurringPrice } from './portal-format';
import { themeHref } from './portal-theme';

export const ASSET_PATH = '/pages/assets';

const METHOD_LABELS: Record<CheckoutMethod, string> = { pix: 'Pix', boleto: 'Boleto', card: 'Cartão' };
const METHOD_ORDER: readonly CheckoutMethod[] = ['pix', 'card', 'boleto'];

/** What a hosted page shows of its seller: the business profile (Settings → Perfil do negócio). */
export interface PageBrand {
  name: string;
  logoUrl: string | null;
  brandColor: string | null;
}

/**
 * The seller's name and logo above the page. The logo is an `<img>` of the seller's https URL (the
 * pages' CSP has img-src https:); an http one is not shown (a page on https would block it anyway).
 */
function brandBar(brand: PageBrand) {
  const logo = brand.logoUrl?.startsWith('https://') ? safeUrl(brand.logoUrl) : null;
  return html`<div class="seller-bar" id="seller-bar">
${logo ? html`<img class="seller-logo" id="seller-logo" src="${logo}" alt="" width="32" height="32">` : ''}
<p class="seller-name" id="seller-name">${brand.name}</p>
</div>`;
}

/**
 * The hosted payment pages' document: the checkout style sheet, the seller's theme sheet when it
 * chose a colour (a same-origin style sheet whose text is a function of its URL: no inline style, so
 * the CSP's style-src stays 'self'), the seller's bar and, when given, one module script.
 */
export function pageLayout(
  title: string,
  body: SafeHtml,
  script: string | null,
  brand: PageBrand | null = null,
): string {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET_PATH}/checkout.css">
${brand?.brandColor ? html`<link rel="stylesheet" href="${themeHref(brand.brandColor)}">` : ''}
${script ? html`<script type="module" src="${script}"></script>` : ''}
</head>
<body${brand?.brandColor ? html` class="branded"` : ''}>
${brand ? brandBar(brand) : ''}
${body}
</body>
</html>
`.value;
}

const layout = (title: string, body: SafeHtml, withScript: boolean, brand: PageBrand | null = null) =>
  pageLayout(title, body, withScript ? `${ASSET_PATH}/checkout.js` : null, brand);

function sandboxBanner(view: CheckoutView) {
  return view.environment === 'test'
    ? html`<p class="sandbox" role="note">Ambiente de teste: nenhuma cobrança real será feita.</p>`
    : '';
}

type Price = NonNullable<CheckoutView['price']>;

/** `R$ 49,90 por mês`, `R$ 129,90 a cada 3 meses`. */
const recurringOf = (p: Price) => recurringPrice(p.unitAmount, p.billingInterval, p.intervalCount);

/** What a subscription costs as the buyer reads it: `7 dias grátis, depois R$ 49,90 por mês`. */
export function subscriptionPriceText(p: Price): string {
  if (p.trialDays === 0) return recurringOf(p);
  return `${p.trialDays} ${p.trialDays === 1 ? 'dia grátis' : 'dias grátis'}, depois ${recurringOf(p)}`;
}

function priceLines(view: CheckoutView) {
  if (!view.price) return html`<p class="price" id="price">${formatBrl(view.product.value)}</p>`;
  return html`<p class="price-plan" id="price-plan">Assinatura · ${view.price.name}</p>
<p class="price" id="price">${subscriptionPriceText(view.price)}</p>`;
}

function productHeader(view: CheckoutView, showPrice: boolean) {
  const { product } = view;
  const image = safeUrl(product.image);
  return html`<header class="product">
${image ? html`<img class="product-image" src="${image}" alt="" width="96" height="96">` : ''}
<div class="product-text">
<h1 class="product-name" id="product-name">${product.name}</h1>
${product.description ? html`<p class="product-description">${product.description}</p>` : ''}
${showPrice ? priceLines(view) : ''}
</div>
</header>`;
}

interface FieldOptions {
  id: string;
  label: string;
  value?: string | null;
  type?: string;
  autocomplete: string;
  inputmode?: string;
  placeholder?: string;
  maxlength?: number;
  mask?: string;
}

/**
 * Inputs carry no `name`: a form submitted without the script (or around it) sends none of them,
 * so card data can never end up in a URL or a form post; the script reads them by id.
 */
function field(o: FieldOptions) {
  return html`<div class="field">
<label for="${o.id}">${o.label}</label>
<input id="${o.id}" type="${o.type ?? 'text'}" autocomplete="${o.autocomplete}"${
    o.inputmode ? html` inputmode="${o.inputmode}"` : ''
  }${o.placeholder ? html` placeholder="${o.placeholder}"` : ''}${
    o.maxlength ? html` maxlength="${o.maxlength}"` : ''
  }${o.mask ? html` data-mask="${o.mask}"` : ''} value="${o.value ?? ''}" aria-describedby="${o.id}-error">
<p class="field-error" id="${o.id}-error" hidden></p>
</div>`;
}

function buyerFields(view: CheckoutView) {
  const c = view.customer;
  return html`<fieldset class="buyer">
<legend>Seus dados</legend>
${field({ id: 'buyer-name', label: 'Nome completo', value: c.name, autocomplete: 'name', maxlength: 200 })}
${field({ id: 'buyer-email', label: 'E-mail', value: c.email, type: 'email', autocomplete: 'email', maxlength: 254 })}
${field({
  id: 'buyer-document',
  label: 'CPF ou CNPJ',
  value: c.document,
  autocomplete: 'off',
  placeholder: '000.000.000-00',
  maxlength: 18,
  mask: 'document',
})}
${field({
  id: 'buyer-phone',
  label: 'Telefone',
  value: c.phone,
  type: 'tel',
  autocomplete: 'tel-national',
  inputmode: 'numeric',
  placeholder: '(11) 91234-5678',
  maxlength: 15,
  mask: 'phone',
})}
</fieldset>`;
}

/** A one-off sale: installments and the buyer's choice to keep the card (with whom, by name). */
function saleCardOptions(view: CheckoutView) {
  const options = installmentOptions(view.product.value, view.product.maxInstallments);
  return html`<div class="field">
<label for="card-installments">Parcelas</label>
<select id="card-installments" aria-describedby="card-installments-error">
${options.map((o) => html`<option value="${o.count}">${o.label}</option>`)}
</select>
<p class="field-error" id="card-installments-error" hidden></p>
</div>
<label class="check"><input type="checkbox" id="card-save"> ${saveCardText(view.seller.name)}</label>`;
}

/** `Salvar cartão com Padaria da Ana para próximas compras`: the buyer knows who keeps it. */
export const saveCardText = (sellerName: string) =>
  sellerName.trim()
    ? `Salvar cartão com ${sellerName.trim()} para próximas compras`
    : 'Salvar cartão para próximas compras';

/** A subscription: one installment, and the card is always kept for the renewals (said plainly). */
function subscriptionCardNote(price: Price) {
  const text =
    price.trialDays > 0
      ? `Nada será cobrado agora. Seu cartão ficará salvo com segurança para as renovações: a primeira cobrança, de ${formatBrl(price.unitAmount)}, acontece quando o teste grátis de ${price.trialDays} ${price.trialDays === 1 ? 'dia' : 'dias'} terminar.`
      : `Seu cartão ficará salvo com segurança para as renovações da assinatura (${recurringOf(price)}).`;
  return html`<p class="hint" id="card-save-note">${text}</p>`;
}

function cardPanel(view: CheckoutView, hidden: boolean) {
  return html`<div class="panel" id="panel-card" role="tabpanel" aria-labelledby="tab-card"${hidden ? html` hidden` : ''}>
${field({
  id: 'card-number',
  label: 'Número do cartão',
  autocomplete: 'cc-number',
  inputmode: 'numeric',
  placeholder: '0000 0000 0000 0000',
  maxlength: 23,
  mask: 'card',
})}
${field({ id: 'card-holder', label: 'Nome no cartão', autocomplete: 'cc-name', maxlength: 100 })}
<div class="row">
${field({
  id: 'card-expiry',
  label: 'Validade',
  autocomplete: 'cc-exp',
  inputmode: 'numeric',
  placeholder: 'MM/AA',
  maxlength: 5,
  mask: 'expiry',
})}
${field({
  id: 'card-cvv',
  label: 'CVV',
  type: 'password',
  autocomplete: 'cc-csc',
  inputmode: 'numeric',
  placeholder: '123',
  maxlength: 4,
  mask: 'cvv',
})}
</div>
${view.price ? subscriptionCardNote(view.price) : saleCardOptions(view)}
</div>`;
}

function pixText(view: CheckoutView) {
  if (!view.price)
    return 'Ao continuar, mostramos o QR Code e o código Pix copia e cola. A confirmação é imediata.';
  return `Ao continuar, mostramos o QR Code do primeiro pagamento (${formatBrl(view.price.unitAmount)}). Ao pagá-lo, você autoriza o Pix Automático: as renovações (${recurringOf(view.price)}) serão debitadas da sua conta sem que você precise pagar de novo. A autorização pode ser cancelada no app do seu banco.`;
}

/**
 * The submit button's words for a method: a boleto is only generated here (it is paid later, at a
 * bank), so its button says so; pix and card pay now.
 */
function payLabel(view: CheckoutView, method: CheckoutMethod) {
  if (!view.price) return method === 'boleto' ? 'Gerar boleto' : `Pagar ${formatBrl(view.product.value)}`;
  return view.price.trialDays > 0
    ? 'Começar o teste grátis'
    : `Assinar e pagar ${formatBrl(view.price.unitAmount)}`;
}

function paymentForm(view: CheckoutView) {
  const methods = METHOD_ORDER.filter((m) => view.product.methods.includes(m));
  const first = methods[0];
  const tabs = methods.map(
    (m) =>
      html`<button type="button" class="tab" role="tab" id="tab-${m}" data-method="${m}" aria-controls="panel-${m}" aria-selected="${m === first ? 'true' : 'false'}" tabindex="${m === first ? '0' : '-1'}">${METHOD_LABELS[m]}</button>`,
  );
  const panels = methods.map((m) => {
    if (m === 'card') return cardPanel(view, m !== first);
    const text =
      m === 'pix'
        ? pixText(view)
        : 'Ao continuar, geramos o boleto com a linha digitável e o PDF. A confirmação pode levar até 3 dias úteis.';
    return html`<div class="panel" id="panel-${m}" role="tabpanel" aria-labelledby="tab-${m}"${m !== first ? html` hidden` : ''}><p class="hint">${text}</p></div>`;
  });
  const labels = Object.fromEntries(methods.map((m) => [m, payLabel(view, m)]));
  return html`<form id="pay-form" class="box" method="post" novalidate>
${buyerFields(view)}
<fieldset class="method">
<legend>Forma de pagamento</legend>
<div class="tabs" role="tablist" aria-label="Forma de pagamento">${tabs}</div>
${panels}
</fieldset>
<div class="form-error" id="form-error" role="alert" hidden></div>
<button type="submit" class="primary" id="pay-button" data-labels="${JSON.stringify(labels)}">${first ? labels[first] : ''}</button>
<noscript><p class="form-error">Ative o JavaScript do navegador para pagar.</p></noscript>
</form>`;
}

/** Filled by the script from the payment's outcome (the same code for a fresh payment and a reload). */
function resultSections() {
  return html`<section class="box result" id="result-pix" hidden>
<h2>Pague com Pix</h2>
<p class="hint">Abra o app do seu banco, escolha pagar com Pix e leia o QR Code ou cole o código.</p>
<img class="qr" id="pix-qr" alt="QR Code Pix" width="240" height="240">
<label for="pix-code">Pix copia e cola</label>
<textarea id="pix-code" readonly rows="4"></textarea>
<button type="button" class="secondary" id="pix-copy" data-copy="pix-code">Copiar</button>
<p class="waiting" id="pix-waiting" role="status"><span class="spinner" aria-hidden="true"></span>Aguardando pagamento…</p>
<p class="hint" id="pix-expires"></p>
<button type="button" class="link" data-action="change-method">Escolher outra forma de pagamento</button>
</section>
<section class="box result" id="result-boleto" hidden>
<h2>Boleto gerado</h2>
<label for="boleto-line">Linha digitável</label>
<textarea id="boleto-line" readonly rows="2"></textarea>
<button type="button" class="secondary" id="boleto-copy" data-copy="boleto-line">Copiar</button>
<div id="boleto-pix" hidden>
<p class="hint">Ou pague este boleto com Pix, na hora: leia o QR Code ou cole o código no app do banco.</p>
<img class="qr" id="boleto-pix-qr" alt="QR Code Pix do boleto" width="240" height="240">
<label for="boleto-pix-code">Pix copia e cola do boleto</label>
<textarea id="boleto-pix-code" readonly rows="4"></textarea>
<button type="button" class="secondary" id="boleto-pix-copy" data-copy="boleto-pix-code">Copiar</button>
</div>
<p><a class="button" id="boleto-pdf" target="_blank" rel="noopener noreferrer">Abrir boleto (PDF)</a></p>
<p class="hint" id="boleto-due"></p>
<p class="waiting" id="boleto-waiting" role="status"><span class="spinner" aria-hidden="true"></span>Aguardando a confirmação do pagamento…</p>
<button type="button" class="link" data-action="change-method">Escolher outra forma de pagamento</button>
</section>
<section class="box result success" id="result-success" hidden>
<h2 id="success-title">Pagamento confirmado!</h2>
<p id="success-detail"></p>
<p id="success-redirect" hidden>Redirecionando para a loja…</p>
<p><a class="button" id="success-link" hidden>Continuar</a></p>
</section>`;
}

function cancelLink(view: CheckoutView) {
  const url = safeUrl(view.cancelUrl);
  return url
    ? html`<p class="cancel"><a id="cancel-link" href="${url}">Cancelar e voltar para a loja</a></p>`
    : '';
}

function openPage(view: CheckoutView) {
  const address = {
    zipCode: view.customer.zipCode,
    street: view.customer.street,
    number: view.customer.number,
    complement: view.customer.complement,
    neighborhood: view.customer.neighborhood,
    city: view.customer.city,
    state: view.customer.state,
  };
  const prefilledAddress = Object.fromEntries(Object.entries(address).filter(([, v]) => v !== null));
  return html`<main class="checkout" id="checkout" data-state="open" data-kind="${view.kind}" data-ref="${view.ref}" data-address="${JSON.stringify(prefilledAddress)}"${
    view.price ? html` data-recurring="${recurringOf(view.price)}"` : ''
  }${view.payment ? html` data-payment="${JSON.stringify(view.payment)}"` : ''}>
${sandboxBanner(view)}
${productHeader(view, true)}
${paymentForm(view)}
${resultSections()}
${cancelLink(view)}
${footer(view.seller.name)}
</main>`;
}

/** `Pagamento a Padaria da Ana, processado com segurança.` */
export const footer = (sellerName: string) =>
  html`<footer class="footer">${sellerName.trim() ? `Pagamento a ${sellerName.trim()}, processado com segurança.` : 'Pagamento processado com segurança.'}</footer>`;

interface Notice {
  title: string;
  text: string;
  link?: { href: string; label: string } | null;
}

function notice(view: CheckoutView): Notice {
  if (view.state === 'complete') {
    const href = safeUrl(view.successUrl);
    if (view.price)
      return {
        title: 'Assinatura confirmada',
        text: 'Esta assinatura já foi iniciada. Não é preciso pagar de novo.',
        link: href ? { href, label: 'Voltar para a loja' } : null,
      };
    return {
      title: 'Pagamento confirmado',
      text: 'Este pagamento já foi concluído. Não é preciso pagar de novo.',
      link: href ? { href, label: 'Voltar para a loja' } : null,
    };
  }
  if (view.state === 'expired') {
    const href = safeUrl(view.cancelUrl);
    return {
      title: 'Este link de pagamento expirou',
      text: 'O prazo para pagar terminou. Volte à loja para iniciar uma nova compra.',
      link: href ? { href, label: 'Voltar para a loja' } : null,
    };
  }
  return {
    title: 'Produto indisponível',
    text:
      view.unavailableReason === 'not_for_sale'
        ? 'Este produto não está à venda por este link.'
        : 'Este produto não está mais disponível para compra.',
  };
}

function closedPage(view: CheckoutView) {
  const n = notice(view);
  return html`<main class="checkout" id="checkout" data-state="${view.state}">
${sandboxBanner(view)}
${productHeader(view, view.state === 'complete')}
<section class="box notice notice-${view.state}" id="notice" role="status">
<h2>${n.title}</h2>
<p>${n.text}</p>
${n.link ? html`<p><a class="button" href="${n.link.href}">${n.link.label}</a></p>` : ''}
</section>
${footer(view.seller.name)}
</main>`;
}

/** The hosted page of a product link or a checkout session; only an open one has a form and the script. */
export function renderCheckoutPage(view: CheckoutView): string {
  const open = view.state === 'open';
  const title = `${view.product.name} · Pagamento`;
  return layout(title, open ? openPage(view) : closedPage(view), open, view.seller.name ? view.seller : null);
}

export function renderNotFoundPage(): string {
  return layout(
    'Página não encontrada',
    html`<main class="checkout" id="checkout" data-state="not-found">
<section class="box notice" id="notice" role="status">
<h1>Link de pagamento não encontrado</h1>
<p>Confira o endereço recebido do vendedor. O link pode estar incompleto ou ter sido removido.</p>
</section>
</main>`,
    false,
  );
}
