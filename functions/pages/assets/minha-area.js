/**
 * The customer area's script (an ES module under a CSP that allows nothing inline). The magic link
 * carries its token in the URL fragment (`/minha-area#token=…`): the script moves it to this tab's
 * sessionStorage and takes it out of the address bar, then lists the customer's charges with every
 * seller and sets or clears each seller's billing e-mail through the token routes. Every text from
 * the API is written as a DOM text node, never as HTML.
 */
import { maskDocument } from './checkout.js';

export const TOKEN_KEY = 'minha-area-token';
const API = '/api/public/minha-area';

/** `R$ 1.234,56` from reais as the API gives them (rounded to whole centavos first; no float sums). */
export function formatBrl(reais) {
  const centavos = Math.round(Number(reais) * 100);
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  const whole = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}R$\u00a0${whole},${String(abs % 100).padStart(2, '0')}`;
}

/** `2026-12-10` → `10/12/2026` (a due date is a Sao Paulo calendar day: no time zone math). */
export function formatDate(day) {
  const [y, m, d] = String(day).split('-');
  return d && m && y ? `${d}/${m}/${y}` : String(day);
}

const STATUS_LABELS = {
  scheduled: 'Em aberto',
  due_today: 'Vence hoje',
  overdue: 'Vencida',
  paid: 'Paga',
  failed: 'Não paga',
  canceled: 'Cancelada',
};
export const statusLabel = (status) => STATUS_LABELS[status] ?? status;

/** What the customer typed: an e-mail when it has `@`, else a CPF/CNPJ (masked or not). */
export function requestBody(text) {
  const value = String(text).trim();
  return value.includes('@') ? { email: value.toLowerCase() } : { document: value };
}

/**
 * Digits and a mask's separators only: the field is then masked as a CPF/CNPJ (an e-mail may start
 * with digits, so text with a letter is left as typed; a CNPJ with letters is accepted unmasked).
 */
export const looksLikeDocument = (text) => /^[0-9.\-/ ]+$/.test(text);

/** A link the page may open: http(s) only, so nothing from the API becomes a `javascript:` URL. */
export function safeHref(url) {
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export const validEmail = (text) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) && text.length <= 254;

/** The token of the link just opened (taken out of the address bar), or the one this tab kept. */
function takeToken() {
  const match = /(?:^#|&)token=([A-Za-z0-9._-]+)/.exec(window.location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', window.location.pathname);
    return match[1];
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

async function call(method, path, token, body) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${API}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  return { status: res.status, data };
}

const messageOf = (data, fallback) =>
  typeof data?.message === 'string' && data.message ? data.message : fallback;

function boot() {
  const $ = (id) => document.getElementById(id);
  const request = $('request');
  const form = $('request-form');
  const target = $('target');
  const requestError = $('request-error');
  const requestButton = $('request-button');
  const sent = $('request-sent');
  const area = $('area');
  const loading = $('loading');
  const problem = $('link-problem');

  target.addEventListener('input', () => {
    if (!target.value.includes('@') && looksLikeDocument(target.value))
      target.value = maskDocument(target.value);
  });

  function showRequest(problemText) {
    area.hidden = true;
    loading.hidden = true;
    $('sandbox').hidden = true;
    request.hidden = false;
    form.hidden = false;
    sent.hidden = true;
    problem.hidden = !problemText;
    problem.textContent = problemText ?? '';
  }

  function signOut(problemText) {
    sessionStorage.removeItem(TOKEN_KEY);
    showRequest(problemText);
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = target.value.trim();
    requestError.hidden = true;
    target.removeAttribute('aria-invalid');
    if (!value || (value.includes('@') && !validEmail(value))) {
      requestError.textContent = 'Informe um e-mail válido ou um CPF/CNPJ.';
      requestError.hidden = false;
      target.setAttribute('aria-invalid', 'true');
      target.focus();
      return;
    }
    requestButton.disabled = true;
    try {
      const res = await call('POST', '/request', null, requestBody(value));
      if (res.status === 200) {
        $('request-sent-text').textContent = res.data?.maskedEmail
          ? `Enviamos um link de acesso para ${res.data.maskedEmail}. Ele vale por 30 minutos.`
          : 'Não encontramos um cadastro com esses dados. Confira o e-mail ou o CPF/CNPJ informado.';
        form.hidden = true;
        problem.hidden = true;
        sent.hidden = false;
      } else {
        requestError.textContent =
          res.status === 400
            ? 'Informe um e-mail válido ou um CPF/CNPJ válido.'
            : messageOf(res.data, 'Não foi possível enviar o link agora. Tente novamente.');
        requestError.hidden = false;
        target.setAttribute('aria-invalid', 'true');
      }
    } catch {
      requestError.textContent = 'Sem conexão. Verifique sua internet e tente novamente.';
      requestError.hidden = false;
    } finally {
      requestButton.disabled = false;
    }
  });

  $('request-again').addEventListener('click', () => {
    showRequest(null);
    target.value = '';
    target.focus();
  });
  $('sign-out').addEventListener('click', () => signOut(null));

  function chargeItem(charge) {
    const item = el('li', 'charge');
    const text = el('div', 'charge-text');
    text.append(el('span', 'charge-description', charge.description));
    const due = charge.open
      ? `Vence em ${formatDate(charge.dueDate)}`
      : `Vencimento: ${formatDate(charge.dueDate)}`;
    text.append(el('span', 'charge-meta', `${due} · ${statusLabel(charge.status)}`));
    item.append(text);
    item.append(el('span', 'charge-amount', formatBrl(charge.amount)));
    const href = charge.open ? safeHref(charge.payUrl) : null;
    if (href) {
      const pay = el('a', 'button pay', 'Pagar');
      pay.href = href;
      pay.setAttribute('aria-label', `Pagar ${charge.description}, ${formatBrl(charge.amount)}`);
      item.append(pay);
    }
    item.dataset.status = charge.status;
    return item;
  }

  function billingForm(token, seller) {
    const box = el('form', 'billing-email');
    box.noValidate = true;
    const id = `billing-${seller.sellerId}`;
    const label = el('label', '', `E-mail para as cobranças de ${seller.sellerName}`);
    label.htmlFor = id;
    const input = el('input');
    input.id = id;
    input.type = 'email';
    input.autocomplete = 'email';
    input.maxLength = 254;
    input.placeholder = 'O e-mail do seu cadastro';
    input.value = seller.billingEmailOverride ?? '';
    const status = el('p', 'hint billing-status');
    status.setAttribute('role', 'status');
    // A setting, not a payment: the secondary style, so it never reads like the rows' "Pagar".
    const save = el('button', 'secondary', 'Salvar e-mail de cobrança');
    save.type = 'submit';
    const clear = el('button', 'secondary', 'Usar o e-mail do cadastro');
    clear.type = 'button';
    clear.hidden = seller.billingEmailOverride === null;

    async function send(value) {
      save.disabled = true;
      clear.disabled = true;
      status.classList.remove('form-error');
      try {
        const res = await call('PATCH', '/profile', token, {
          sellerId: seller.sellerId,
          billingEmailOverride: value,
        });
        if (res.status === 200) {
          seller.billingEmailOverride = value;
          input.value = value ?? '';
          clear.hidden = value === null;
          status.textContent =
            value === null
              ? 'Pronto: as cobranças deste vendedor voltam para o e-mail do seu cadastro.'
              : `Pronto: as cobranças deste vendedor irão para ${value}.`;
        } else if (res.status === 401) {
          signOut('Seu link expirou. Peça um novo para continuar.');
        } else {
          status.classList.add('form-error');
          status.textContent =
            res.status === 400
              ? 'Informe um e-mail válido.'
              : res.status === 404
                ? 'Não encontramos mais o seu cadastro.'
                : messageOf(res.data, 'Não foi possível salvar agora. Tente novamente.');
        }
      } catch {
        status.classList.add('form-error');
        status.textContent = 'Sem conexão. Verifique sua internet e tente novamente.';
      } finally {
        save.disabled = false;
        clear.disabled = false;
      }
    }

    box.addEventListener('submit', (event) => {
      event.preventDefault();
      const value = input.value.trim().toLowerCase();
      if (!validEmail(value)) {
        status.classList.add('form-error');
        status.textContent = 'Informe um e-mail válido.';
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return;
      }
      input.removeAttribute('aria-invalid');
      send(value);
    });
    clear.addEventListener('click', () => send(null));
    const field = el('div', 'field');
    field.append(label, input);
    box.append(field, status, save, clear);
    return box;
  }

  /** The seller's business name, with its https logo when its profile has one. */
  function sellerHead(seller) {
    const head = el('div', 'seller-head');
    const logo = seller.logoUrl?.startsWith('https://') ? safeHref(seller.logoUrl) : null;
    if (logo) {
      const img = el('img', 'seller-logo');
      img.src = logo;
      img.alt = '';
      img.width = 32;
      img.height = 32;
      head.append(img);
    }
    head.append(el('h3', 'seller-name', seller.sellerName));
    return head;
  }

  function render(token, data) {
    $('greeting').textContent = `Olá, ${data.customer.name}`;
    $('sandbox').hidden = data.customer.environment !== 'test';
    const list = $('sellers');
    list.replaceChildren();
    if (data.sellers.length === 0) list.append(el('p', 'hint', 'Você ainda não tem cobranças.'));
    for (const seller of data.sellers) {
      const section = el('section', 'box seller');
      section.dataset.sellerId = String(seller.sellerId);
      section.append(sellerHead(seller));
      const charges = data.data.filter((c) => c.sellerId === seller.sellerId);
      if (charges.length === 0) {
        section.append(el('p', 'hint', 'Nenhuma cobrança em aberto ou recente com este vendedor.'));
      } else {
        const ul = el('ul', 'charges');
        for (const charge of charges) ul.append(chargeItem(charge));
        section.append(ul);
      }
      section.append(billingForm(token, seller));
      list.append(section);
    }
    request.hidden = true;
    loading.hidden = true;
    area.hidden = false;
  }

  async function open(token) {
    request.hidden = true;
    area.hidden = true;
    loading.hidden = false;
    try {
      const res = await call('GET', '/charges', token);
      if (res.status === 200) render(token, res.data);
      else if (res.status === 401) signOut('Este link expirou ou não é válido. Peça um novo abaixo.');
      else if (res.status === 404) signOut('Não encontramos mais o seu cadastro.');
      else showRequest(messageOf(res.data, 'Não foi possível carregar suas cobranças. Tente novamente.'));
    } catch {
      showRequest('Sem conexão. Verifique sua internet e tente novamente.');
    }
  }

  const token = takeToken();
  if (token) open(token);
  else showRequest(null);
  // A link opened in a tab already showing the area changes only the fragment: no new page load.
  window.addEventListener('hashchange', () => {
    if (!/(?:^#|&)token=/.test(window.location.hash)) return;
    const next = takeToken();
    if (next) open(next);
  });
}

if (typeof document !== 'undefined' && document.getElementById('minha-area')) boot();
