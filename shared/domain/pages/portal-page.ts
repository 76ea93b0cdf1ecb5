import type { BillingInterval } from '#shared/domain/subscriptions/price';
import { ASSET_PATH } from './checkout-page';
import { html, type SafeHtml, safeUrl } from './html';
import { cancelDialog, cardDialog } from './portal-dialogs';
import { cardText, formatSaoPauloDay, recurringPrice, statusLabel } from './portal-format';
import { themeHref } from './portal-theme';

/**
 * What the page shows: the parts of GET /api/portal's answer it reads (the portal use case's answer
 * satisfies it). Every text in it is the seller's or the customer's and is escaped by `html`.
 */
export interface PortalPageData {
  returnUrl: string | null;
  customer: { name: string; email: string; phone: string | null };
  configuration: {
    businessName: string | null;
    logoUrl: string | null;
    primaryColor: string;
    allowUpdateBillingInfo: boolean;
    customWelcomeText: string | null;
    customSuccessMessage: string | null;
    customCancellationMessage: string | null;
  };
  subscriptions: readonly PortalSubscription[];
  paymentMethods: readonly PortalCard[];
}

export interface PortalSubscription {
  id: number;
  status: string;
  collectionMethod: string;
  currentPeriodEnd: string;
  trialEndsAt: string | null;
  cancelAt: string | null;
  cancelledAt: string | null;
  pauseCollection: { pausedAt: string } | null;
  nextPaymentAt: string | null;
  failedPaymentCount: number;
  environment: string;
  subscriptionPrice: {
    name: string;
    unitAmount: number;
    billingInterval: BillingInterval;
    intervalCount: number;
    product: { name: string };
  };
  paymentMethod: { id: number; cardLast4: string; cardBrand: string } | null;
  actions: {
    cancel: boolean;
    pause: boolean;
    resume: boolean;
    reactivate: boolean;
    updatePaymentMethod: boolean;
    viewInvoices: boolean;
  };
  cancelRules: { atPeriodEndOnly: boolean; reasonRequired: boolean };
}

export interface PortalCard {
  id: number;
  brand: string;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
}

function layout(title: string, primaryColor: string | null, body: SafeHtml, withScript: boolean): string {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSET_PATH}/checkout.css">
<link rel="stylesheet" href="${ASSET_PATH}/portal.css">
<link rel="stylesheet" href="${themeHref(primaryColor)}">
${withScript ? html`<script type="module" src="${ASSET_PATH}/portal.js"></script>` : ''}
</head>
<body>
${body}
</body>
</html>
`.value;
}

/** The seller's logo is loaded by the buyer's browser: https only (the CSP's img-src allows no plain http). */
function logoUrl(value: string | null): string | null {
  const url = safeUrl(value);
  return url?.startsWith('https:') ? url : null;
}

function header(data: PortalPageData) {
  const { businessName } = data.configuration;
  const logo = logoUrl(data.configuration.logoUrl);
  const back = safeUrl(data.returnUrl);
  return html`<header class="portal-header">
<div class="portal-header-inner">
${logo ? html`<img class="portal-logo" id="portal-logo" src="${logo}" alt="" width="40" height="40">` : ''}
<p class="portal-business" id="business-name">${businessName ?? 'Minhas assinaturas'}</p>
${back ? html`<a class="portal-back" id="return-link-top" href="${back}">Voltar</a>` : ''}
</div>
</header>`;
}

function details(s: PortalSubscription, now: Date) {
  const price = s.subscriptionPrice;
  const rows: [string, string][] = [
    ['Valor', recurringPrice(price.unitAmount, price.billingInterval, price.intervalCount)],
  ];
  const inTrial = s.trialEndsAt !== null && Date.parse(s.trialEndsAt) > now.getTime();
  if (s.status === 'canceled') {
    if (s.cancelledAt) rows.push(['Cancelada em', formatSaoPauloDay(s.cancelledAt)]);
  } else if (s.status === 'pending_cancellation') {
    rows.push(['Acesso até', formatSaoPauloDay(s.cancelAt ?? s.currentPeriodEnd)]);
  } else if (s.pauseCollection) {
    rows.push(['Próxima cobrança', 'Pausada']);
  } else if (s.nextPaymentAt) {
    if (inTrial && s.trialEndsAt) rows.push(['Teste grátis até', formatSaoPauloDay(s.trialEndsAt)]);
    rows.push(['Próxima cobrança', formatSaoPauloDay(s.nextPaymentAt)]);
  }
  if (s.collectionMethod === 'pix_automatic') rows.push(['Pagamento', 'Pix Automático']);
  else if (s.paymentMethod)
    rows.push(['Cartão', cardText(s.paymentMethod.cardBrand, s.paymentMethod.cardLast4)]);
  return html`<dl class="sub-details">${rows.map(
    ([term, value]) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`,
  )}</dl>`;
}

function note(s: PortalSubscription) {
  if (s.status === 'active' && s.failedPaymentCount > 0 && !s.pauseCollection)
    return html`<p class="sub-note warn">A última cobrança não foi aprovada. Faremos uma nova tentativa${
      s.nextPaymentAt ? ` em ${formatSaoPauloDay(s.nextPaymentAt)}` : ''
    }. Se preferir, troque o cartão.</p>`;
  if (s.status === 'failed')
    return html`<p class="sub-note bad">As cobranças desta assinatura não foram aprovadas e ela foi suspensa.</p>`;
  if (s.status === 'pending_cancellation')
    return html`<p class="sub-note">Você continua com acesso até o fim do período. Nenhuma nova cobrança será feita.</p>`;
  if (s.pauseCollection)
    return html`<p class="sub-note">As cobranças estão pausadas desde ${formatSaoPauloDay(s.pauseCollection.pausedAt)}.</p>`;
  return '';
}

const actionButton = (id: number, action: string, label: string, kind: 'primary' | 'secondary' | 'danger') =>
  html`<button type="button" class="action ${kind}" data-action="${action}" data-subscription="${id}">${label}</button>`;

function actions(s: PortalSubscription) {
  const a = s.actions;
  const buttons = [
    a.reactivate ? actionButton(s.id, 'reactivate', 'Reativar', 'primary') : '',
    a.resume ? actionButton(s.id, 'resume', 'Retomar', 'primary') : '',
    a.updatePaymentMethod ? actionButton(s.id, 'open-card', 'Trocar cartão', 'secondary') : '',
    a.pause ? actionButton(s.id, 'pause', 'Pausar', 'secondary') : '',
    a.cancel ? actionButton(s.id, 'open-cancel', 'Cancelar', 'danger') : '',
  ];
  return html`${buttons.some(Boolean) ? html`<div class="actions">${buttons}</div>` : ''}
${
  a.viewInvoices
    ? html`<button type="button" class="link" data-action="history" data-subscription="${s.id}" aria-expanded="false" aria-controls="history-${s.id}">Ver histórico de pagamentos</button>
<div class="history" id="history-${s.id}" hidden><h4>Histórico</h4><ol class="history-list"></ol><p class="hint history-empty" hidden>Nenhum registro ainda.</p></div>`
    : ''
}`;
}

function subscriptionCard(s: PortalSubscription, data: PortalPageData, now: Date) {
  const status = statusLabel(s, now);
  const price = s.subscriptionPrice;
  return html`<article class="box subscription" id="subscription-${s.id}" data-subscription="${s.id}" aria-labelledby="sub-title-${s.id}">
<div class="sub-head">
<div class="sub-title">
<h3 id="sub-title-${s.id}">${price.product.name}</h3>
${price.name && price.name !== price.product.name ? html`<p class="sub-plan">${price.name}</p>` : ''}
</div>
<span class="status status-${status.tone}" id="status-${s.id}">${status.text}</span>
</div>
${details(s, now)}
${note(s)}
${actions(s)}
${cancelDialog(s)}
${cardDialog(s, data.paymentMethods)}
</article>`;
}

function billingForm(data: PortalPageData) {
  const c = data.customer;
  if (!data.configuration.allowUpdateBillingInfo)
    return html`<section class="box" aria-labelledby="billing-title">
<h2 id="billing-title">Seus dados</h2>
<dl class="sub-details"><div><dt>Nome</dt><dd id="customer-name">${c.name}</dd></div><div><dt>E-mail</dt><dd>${c.email}</dd></div></dl>
</section>`;
  const field = (
    id: string,
    label: string,
    value: string | null,
    type: string,
    autocomplete: string,
    max: number,
  ) =>
    html`<div class="field">
<label for="${id}">${label}</label>
<input id="${id}" type="${type}" autocomplete="${autocomplete}" maxlength="${max}" value="${value ?? ''}"${
      id === 'info-phone' ? html` inputmode="numeric" data-mask="phone"` : ''
    } aria-describedby="${id}-error">
<p class="field-error" id="${id}-error" hidden></p>
</div>`;
  return html`<section class="box" aria-labelledby="billing-title">
<h2 id="billing-title">Seus dados</h2>
<form id="billing-form" data-form="billing" novalidate>
${field('info-name', 'Nome completo', c.name, 'text', 'name', 200)}
${field('info-email', 'E-mail', c.email, 'email', 'email', 254)}
${field('info-phone', 'Telefone', c.phone, 'tel', 'tel-national', 15)}
<div class="form-error" role="alert" hidden></div>
<button type="submit" class="primary" data-submit>Salvar dados</button>
</form>
</section>`;
}

/**
 * The hosted customer portal: the seller's brand, the customer's subscriptions with exactly the
 * actions the portal allows, card change, history, billing data and the way back. The script
 * calls the token routes and, after each action, swaps in this same page rendered again.
 */
export function renderPortalPage(data: PortalPageData, now: Date): string {
  const config = data.configuration;
  const sandbox = data.subscriptions.some((s) => s.environment === 'test');
  const back = safeUrl(data.returnUrl);
  const firstName = data.customer.name.trim().split(/\s+/)[0] ?? '';
  const main = html`${header(data)}
<main class="portal" id="portal" data-success-message="${config.customSuccessMessage ?? ''}" data-cancellation-message="${config.customCancellationMessage ?? ''}">
${sandbox ? html`<p class="sandbox" role="note">Ambiente de teste: nenhuma cobrança real será feita.</p>` : ''}
<section class="welcome">
<h1 id="greeting">Olá${firstName ? `, ${firstName}` : ''}!</h1>
${config.customWelcomeText ? html`<p class="welcome-text" id="welcome-text">${config.customWelcomeText}</p>` : html`<p class="welcome-text">Aqui você acompanha e gerencia suas assinaturas.</p>`}
</section>
<div class="message" id="portal-message" role="status" tabindex="-1" hidden></div>
<div class="form-error" id="portal-error" role="alert" tabindex="-1" hidden></div>
<section class="subscriptions" aria-labelledby="subscriptions-title">
<h2 id="subscriptions-title">Suas assinaturas</h2>
${
  data.subscriptions.length > 0
    ? data.subscriptions.map((s) => subscriptionCard(s, data, now))
    : html`<p class="box hint" id="no-subscriptions">Você não tem assinaturas com ${config.businessName ?? 'esta loja'}.</p>`
}
</section>
${billingForm(data)}
${back ? html`<p class="return"><a class="button" id="return-link" href="${back}">Voltar para a loja</a></p>` : ''}
<footer class="footer">Link de acesso pessoal: não compartilhe. Ele expira em 1 hora.</footer>
</main>`;
  const title = `${config.businessName ? `${config.businessName} · ` : ''}Minhas assinaturas`;
  return layout(title, config.primaryColor, main, true);
}

/** An unknown, malformed or expired token: no data at all, only how to get a new link. */
export function renderPortalExpiredPage(): string {
  return layout(
    'Link expirado',
    null,
    html`<main class="portal" id="portal" data-state="expired">
<section class="box notice" id="notice" role="status">
<h1>Link expirado</h1>
<p>Este link de acesso às suas assinaturas expirou ou não é válido. Por segurança, cada link vale por 1 hora.</p>
<p>Volte ao site da loja e peça um novo link para gerenciar suas assinaturas.</p>
</section>
</main>`,
    false,
  );
}
