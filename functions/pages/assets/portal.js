/**
 * The customer portal's script (an ES module of this origin; the CSP allows nothing inline). The
 * page is rendered on the server; this script opens the dialogs, calls the portal's token routes
 * (`/api/portal/...?token=…`, the token read from this page's own URL) and after each change fetches
 * the page again and swaps it in, so the server stays the one renderer. Every text from the API is
 * written with textContent. Card data is read from inputs that have no `name` and goes only into
 * the POST body of add-card-and-update (sent again with a proof of work when the server asks one).
 */
import {
  formatBrl,
  formatDay,
  maskCardNumber,
  maskCvv,
  maskExpiry,
  maskPhone,
  onlyDigits,
  parseExpiry,
  postWithProof,
  tooManyMessage,
} from './checkout.js';

const MASKS = { card: maskCardNumber, expiry: maskExpiry, cvv: maskCvv, phone: maskPhone };

const HISTORY_LABELS = {
  'subscription.created': 'Assinatura criada',
  'subscription.activated': 'Assinatura ativada',
  trial_started: 'Início do período de teste',
  trial_ended: 'Fim do período de teste',
  payment_success: 'Pagamento aprovado',
  payment_failed: 'Pagamento recusado',
  'subscription.paused': 'Cobranças pausadas',
  'subscription.resumed': 'Cobranças retomadas',
  'subscription.canceled': 'Cancelamento solicitado',
  'subscription.expired': 'Assinatura encerrada',
};

/** One history record as a line: when, what, and the amount of a payment (eventData.amount, Reais). */
export function historyLine(entry) {
  const data = entry.eventData ?? {};
  let what = HISTORY_LABELS[entry.eventType] ?? entry.eventType;
  if (entry.eventType === 'subscription.activated' && data.reactivated) what = 'Assinatura reativada';
  if (entry.eventType === 'subscription.canceled')
    what = data.atPeriodEnd ? 'Cancelamento agendado para o fim do período' : 'Assinatura cancelada';
  const amount = typeof data.amount === 'number' ? formatBrl(data.amount) : null;
  return {
    date: formatDay(entry.createdAt),
    what,
    amount,
    failed: entry.eventType === 'payment_failed',
  };
}

const ACTION_DONE = {
  pause: 'Cobranças pausadas. Você pode retomá-las quando quiser.',
  resume: 'Cobranças retomadas.',
  reactivate: 'Assinatura reativada.',
  card: 'Cartão atualizado. As próximas cobranças usarão este cartão.',
  billing: 'Seus dados foram atualizados.',
};

/**
 * The message after a change: the seller's custom text when there is one (its cancellation text for
 * a cancel, its success text for the rest), else ours.
 */
export function doneMessage(action, custom, detail = {}) {
  if (action === 'cancel') {
    if (custom.cancellation) return custom.cancellation;
    return detail.atPeriodEnd
      ? `Cancelamento agendado. Você continua com acesso até ${detail.periodEnd}.`
      : 'Sua assinatura foi cancelada.';
  }
  return custom.success || ACTION_DONE[action] || 'Pronto!';
}

/** Where each API field name is shown in a form (ids end with the subscription id for the dialogs). */
const FIELD_INPUTS = {
  reason: ['cancel-reason', 'Informe o motivo do cancelamento.'],
  cardNumber: ['card-number', 'Confira o número do cartão.'],
  holderName: ['card-holder', 'Informe o nome como está impresso no cartão.'],
  expiryMonth: ['card-expiry', 'Informe a validade no formato MM/AA.'],
  expiryYear: ['card-expiry', 'Informe a validade no formato MM/AA.'],
  cvv: ['card-cvv', 'O CVV tem 3 ou 4 dígitos.'],
  paymentMethodId: [null, 'Escolha um cartão.'],
  name: ['info-name', 'Informe seu nome completo.'],
  email: ['info-email', 'Informe um e-mail válido.'],
  phone: ['info-phone', 'Informe um telefone com DDD, com 10 ou 11 dígitos.'],
};

/**
 * An API validation answer (`reason is required`, `cardNumber is not a valid card number`) as
 * Portuguese messages by input id (`suffix` is the dialog's subscription id), the rest for the form.
 */
export function fieldErrors(messages, suffix = '') {
  const byInput = {};
  const general = [];
  for (const message of Array.isArray(messages) ? messages : [String(messages ?? '')]) {
    const field = String(message).split(/[\s.]/)[0];
    const known = FIELD_INPUTS[field];
    if (!known) general.push('Confira os dados informados e tente novamente.');
    else if (known[0] === null) general.push(known[1]);
    else byInput[known[0].startsWith('info-') ? known[0] : `${known[0]}-${suffix}`] ??= known[1];
  }
  return { byInput, general: [...new Set(general)] };
}

/** What a refused request tells the customer (the API's own messages are English and technical). */
export function refusalMessage(status, body) {
  const text = Array.isArray(body?.message) ? body.message.join(' ') : String(body?.message ?? '');
  if (status === 403) return 'Esta ação não está disponível para esta assinatura.';
  if (status === 404) return 'Não encontramos esta assinatura ou este cartão. Recarregue a página.';
  if (status === 429) return tooManyMessage(body);
  if (/expired/i.test(text) && /card/i.test(text))
    return 'O cartão salvo expirou. Troque o cartão e tente de novo.';
  if (/declined|recusad/i.test(text) || status === 402)
    return 'O cartão foi recusado pelo banco emissor. Use outro cartão.';
  if (status === 409)
    return 'Não foi possível concluir: a assinatura mudou de situação. Recarregue a página.';
  if (status === 400) return 'Confira os dados informados e tente novamente.';
  return 'Não foi possível concluir agora. Tente novamente em instantes.';
}

function boot(document, location) {
  const $ = (id) => document.getElementById(id);
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const route = (path) => `/api/portal${path}?token=${encodeURIComponent(token)}`;
  const main = () => $('portal');
  const custom = () => ({
    success: main().dataset.successMessage || '',
    cancellation: main().dataset.cancellationMessage || '',
  });

  async function call(method, path, body) {
    const init = { method, headers: { accept: 'application/json' }, cache: 'no-store' };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      // A new card may be asked for a proof of work first (the card-testing guard): solved here.
      response =
        method === 'POST' && body !== undefined
          ? await postWithProof(route(path), init.body)
          : await fetch(route(path), init);
    } catch {
      return { ok: false, status: 0, body: {} };
    }
    const parsed = await response.json().catch(() => ({}));
    // The hour is over: the page itself now answers the expired notice, with no data.
    if (response.status === 401) location.reload();
    return { ok: response.ok, status: response.status, body: parsed };
  }

  function show(element, text) {
    element.textContent = text;
    element.hidden = !text;
  }

  function clearErrors(scope) {
    for (const p of scope.querySelectorAll('.field-error, .form-error')) show(p, '');
    for (const input of scope.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  }

  function showErrors(form, { byInput, general }) {
    for (const [id, text] of Object.entries(byInput)) {
      const input = $(id);
      const slot = $(`${id}-error`);
      if (!input || !slot || input.closest('[hidden]')) {
        general.push(text);
        continue;
      }
      input.setAttribute('aria-invalid', 'true');
      show(slot, text);
    }
    if (general.length > 0) show(form.querySelector('.form-error'), [...new Set(general)].join(' '));
    (form.querySelector('[aria-invalid="true"]') ?? form.querySelector('.form-error'))?.focus?.();
  }

  /**
   * Fetches this page again and swaps its content in: the server renders the new state. `updated`
   * names the subscription just changed, which the server then reads by its key (the customer's
   * list comes from an index that may lag the write by a moment).
   */
  async function refresh(updated) {
    const url = new URL(location.href);
    if (updated) url.searchParams.set('updated', updated);
    let response;
    try {
      response = await fetch(url, { headers: { accept: 'text/html' }, cache: 'no-store' });
    } catch {
      return false;
    }
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const next = page.getElementById('portal');
    if (!next) return false;
    const header = document.querySelector('.portal-header');
    const nextHeader = page.querySelector('.portal-header');
    if (header && nextHeader) header.replaceWith(document.adoptNode(nextHeader));
    else if (header) header.remove();
    main().replaceWith(document.adoptNode(next));
    applyMasks(main());
    return response.ok;
  }

  async function announce(text, updated) {
    await refresh(updated);
    const message = $('portal-message');
    if (message) {
      show(message, text);
      message.focus();
    }
  }

  function failed(result, form) {
    if (result.status === 401) return;
    if (result.status === 400 && form) {
      const suffix = form.dataset.subscription ?? '';
      return showErrors(form, fieldErrors(result.body?.message, suffix));
    }
    const text =
      result.status === 0
        ? 'Não foi possível falar com o servidor. Confira sua conexão e tente novamente.'
        : refusalMessage(result.status, result.body);
    if (form) return showErrors(form, { byInput: {}, general: [text] });
    const error = $('portal-error');
    show(error, text);
    error.focus();
  }

  async function busy(button, work) {
    const label = button?.textContent;
    if (button) {
      button.disabled = true;
      button.textContent = 'Aguarde…';
    }
    try {
      return await work();
    } finally {
      if (button?.isConnected) {
        button.disabled = false;
        button.textContent = label;
      }
    }
  }

  async function simpleAction(button) {
    const id = button.dataset.subscription;
    const action = button.dataset.action;
    show($('portal-error'), '');
    show($('portal-message'), '');
    const result = await busy(button, () => call('POST', `/subscriptions/${id}/${action}`));
    if (result.ok) return announce(doneMessage(action, custom()), id);
    failed(result);
  }

  async function toggleHistory(button) {
    const id = button.dataset.subscription;
    const box = $(`history-${id}`);
    if (!box.hidden) {
      box.hidden = true;
      button.setAttribute('aria-expanded', 'false');
      return;
    }
    const result = await busy(button, () => call('GET', `/subscriptions/${id}/events`));
    if (!result.ok) return failed(result);
    const entries = Array.isArray(result.body) ? result.body : (result.body?.data ?? []);
    const list = box.querySelector('.history-list');
    list.replaceChildren(
      ...entries.map((entry) => {
        const line = historyLine(entry);
        const li = document.createElement('li');
        if (line.failed) li.className = 'history-failed';
        for (const [cls, text] of [
          ['history-date', line.date],
          ['history-what', line.what],
          ['history-amount', line.amount],
        ]) {
          if (!text) continue;
          const span = document.createElement('span');
          span.className = cls;
          span.textContent = text;
          li.append(span);
        }
        return li;
      }),
    );
    box.querySelector('.history-empty').hidden = entries.length > 0;
    box.hidden = false;
    button.setAttribute('aria-expanded', 'true');
  }

  function openDialog(kind, id) {
    const dialog = $(`${kind}-dialog-${id}`);
    if (!dialog) return;
    clearErrors(dialog);
    dialog.showModal();
  }

  async function submitCancel(form) {
    const id = form.dataset.subscription;
    const dialog = form.closest('dialog');
    const reasonInput = $(`cancel-reason-${id}`);
    const reason = reasonInput.value.trim();
    if (reasonInput.required && !reason)
      return showErrors(form, {
        byInput: { [reasonInput.id]: 'Informe o motivo do cancelamento.' },
        general: [],
      });
    const scheduled = dialog.dataset.scheduled === 'true';
    const chosen = form.querySelector(`input[name="when-${id}"]:checked`);
    const atPeriodEnd = scheduled ? false : chosen ? chosen.value === 'period_end' : true;
    const body = { atPeriodEnd };
    if (reason) body.reason = reason;
    const result = await busy(form.querySelector('[data-submit]'), () =>
      call('POST', `/subscriptions/${id}/cancel`, body),
    );
    if (!result.ok) return failed(result, form);
    dialog.close();
    await announce(doneMessage('cancel', custom(), { atPeriodEnd, periodEnd: dialog.dataset.periodEnd }), id);
  }

  function localCardErrors(id) {
    const byInput = {};
    const value = (name) => $(`${name}-${id}`).value.trim();
    const digits = onlyDigits(value('card-number'));
    if (digits.length < 12 || digits.length > 19)
      byInput[`card-number-${id}`] = 'Confira o número do cartão.';
    if (!value('card-holder')) byInput[`card-holder-${id}`] = 'Informe o nome como está impresso no cartão.';
    if (!parseExpiry(value('card-expiry')))
      byInput[`card-expiry-${id}`] = 'Informe a validade no formato MM/AA.';
    if (!/^\d{3,4}$/.test(value('card-cvv'))) byInput[`card-cvv-${id}`] = 'O CVV tem 3 ou 4 dígitos.';
    return byInput;
  }

  function forgetCard(id) {
    for (const name of ['card-number', 'card-cvv']) if ($(`${name}-${id}`)) $(`${name}-${id}`).value = '';
  }

  async function submitCard(form) {
    const id = form.dataset.subscription;
    const dialog = form.closest('dialog');
    const choice = form.querySelector(`input[name="card-${id}"]:checked`)?.value;
    if (!choice) return showErrors(form, { byInput: {}, general: ['Escolha um cartão.'] });
    let path;
    let body;
    if (choice === 'new') {
      const local = localCardErrors(id);
      if (Object.keys(local).length > 0) return showErrors(form, { byInput: local, general: [] });
      const expiry = parseExpiry($(`card-expiry-${id}`).value.trim());
      path = `/subscriptions/${id}/add-card-and-update`;
      body = {
        cardNumber: onlyDigits($(`card-number-${id}`).value),
        holderName: $(`card-holder-${id}`).value.trim(),
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        cvv: $(`card-cvv-${id}`).value.trim(),
      };
    } else {
      path = `/subscriptions/${id}/update-payment-method`;
      body = { paymentMethodId: Number(choice) };
    }
    const result = await busy(form.querySelector('[data-submit]'), () => call('POST', path, body));
    if (choice === 'new') forgetCard(id);
    if (!result.ok) return failed(result, form);
    dialog.close();
    await announce(doneMessage('card', custom()), id);
  }

  /** What the browser can tell before asking the API; the API checks everything again. */
  function localBillingErrors() {
    const byInput = {};
    if (!$('info-name').value.trim()) byInput['info-name'] = 'Informe seu nome completo.';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test($('info-email').value.trim()))
      byInput['info-email'] = 'Informe um e-mail válido.';
    const phone = onlyDigits($('info-phone').value);
    if (phone && phone.length !== 10 && phone.length !== 11)
      byInput['info-phone'] = 'Informe um telefone com DDD, com 10 ou 11 dígitos.';
    return byInput;
  }

  async function submitBilling(form) {
    const local = localBillingErrors();
    if (Object.keys(local).length > 0) return showErrors(form, { byInput: local, general: [] });
    const body = { name: $('info-name').value.trim(), email: $('info-email').value.trim() };
    // A customer without a phone may leave it empty: the profile keeps what it had.
    const phone = onlyDigits($('info-phone').value);
    if (phone) body.phone = phone;
    const result = await busy(form.querySelector('[data-submit]'), () => call('PUT', '/customer-info', body));
    if (!result.ok) return failed(result, form);
    await announce(doneMessage('billing', custom()));
  }

  const SUBMIT = { cancel: submitCancel, card: submitCard, billing: submitBilling };

  document.addEventListener('click', (event) => {
    const button = event.target.closest?.('[data-action]');
    if (!button || button.disabled) return;
    const { action, subscription } = button.dataset;
    if (action === 'open-cancel') return openDialog('cancel', subscription);
    if (action === 'open-card') return openDialog('card', subscription);
    if (action === 'close-dialog') return button.closest('dialog')?.close();
    if (action === 'history') return void toggleHistory(button);
    if (action === 'pause' || action === 'resume' || action === 'reactivate') void simpleAction(button);
  });

  document.addEventListener('change', (event) => {
    const input = event.target;
    const match = /^card-(\d+)$/.exec(input.name ?? '');
    if (match) $(`new-card-${match[1]}`).hidden = input.value !== 'new';
  });

  document.addEventListener('submit', (event) => {
    const form = event.target;
    const submit = SUBMIT[form.dataset?.form];
    if (!submit) return;
    event.preventDefault();
    clearErrors(form);
    void submit(form);
  });

  applyMasks(main());
}

function applyMasks(root) {
  for (const input of root.querySelectorAll('input[data-mask]')) {
    const mask = MASKS[input.dataset.mask];
    if (!mask) continue;
    input.value = mask(input.value);
    input.addEventListener('input', () => {
      input.value = mask(input.value);
    });
  }
}

if (typeof document !== 'undefined') {
  const root = document.getElementById('portal');
  if (root && root.dataset.state !== 'expired') boot(document, window.location);
}
