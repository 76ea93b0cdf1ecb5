/**
 * The hosted payment page's script (an ES module, served from this origin under a CSP that allows
 * nothing inline). The page is rendered on the server; this script masks the inputs, switches the
 * method tabs, sends the payment to the public JSON route and shows its outcome.
 * Card data is read from inputs that have no `name`, goes only into the POST body, and is never
 * written to storage, a URL or the console.
 */

/** How often a pending payment is asked about: pix is confirmed in seconds, a boleto in days. */
export const POLL_MS = { pix: 2000, boleto: 10000 };
/** A boleto page left open stops asking after this long; a pix one when the code expires. */
export const BOLETO_POLL_LIMIT_MS = 30 * 60 * 1000;
/** Long enough to read "Pagamento confirmado" before the seller's page replaces this one. */
export const REDIRECT_DELAY_MS = 1500;

/** Fills `pattern` (`#` = one character) with `chars`; a separator is written only when a character follows it. */
function fill(chars, pattern) {
  let out = '';
  let at = 0;
  for (const slot of pattern) {
    if (at >= chars.length) break;
    if (slot === '#') out += chars[at++];
    else out += slot;
  }
  return out;
}

export const onlyDigits = (text) => String(text).replace(/\D/g, '');

/**
 * CPF `000.000.000-00` up to 11 digits, CNPJ `00.000.000/0000-00` past 11 (or as soon as a letter
 * appears: since 2026 a CNPJ may carry letters in its first 12 characters).
 */
export function maskDocument(text) {
  const chars = String(text)
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .slice(0, 14);
  if (chars.length <= 11 && /^\d*$/.test(chars)) return fill(chars, '###.###.###-##');
  return fill(chars, '##.###.###/####-##');
}

/** `(11) 91234-5678` for a mobile (11 digits), `(11) 3123-4567` for a landline (10). */
export function maskPhone(text) {
  const digits = onlyDigits(text).slice(0, 11);
  if (digits.length === 0) return '';
  if (digits.length <= 2) return `(${digits}`;
  return fill(digits, digits.length === 11 ? '(##) #####-####' : '(##) ####-####');
}

/** Groups of four, up to 19 digits. */
export function maskCardNumber(text) {
  const digits = onlyDigits(text).slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** `MM/AA`. */
export function maskExpiry(text) {
  return fill(onlyDigits(text).slice(0, 4), '##/##');
}

export const maskCvv = (text) => onlyDigits(text).slice(0, 4);

const MASKS = {
  document: maskDocument,
  phone: maskPhone,
  card: maskCardNumber,
  expiry: maskExpiry,
  cvv: maskCvv,
};

/** `MM/AA` → `{ month, year }` (year with four digits), or null when it is not a month and a year. */
export function parseExpiry(text) {
  const m = /^(\d{2})\/(\d{2})$/.exec(String(text).trim());
  if (!m) return null;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(m[2]) };
}

const BRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
export const formatBrl = (reais) => BRL.format(reais);

/** Where the API's field names are shown, and what a buyer reads about each. */
const FIELDS = [
  ['customer.name', 'buyer-name', 'Informe seu nome completo.'],
  ['customer.email', 'buyer-email', 'Informe um e-mail válido.'],
  ['customer.document', 'buyer-document', 'Informe um CPF ou CNPJ válido.'],
  ['customer.phone', 'buyer-phone', 'Informe um telefone com DDD, com 10 ou 11 dígitos.'],
  ['card.number', 'card-number', 'Confira o número do cartão.'],
  ['card.holderName', 'card-holder', 'Informe o nome como está impresso no cartão.'],
  ['card.expiryYear must not be in the past', 'card-expiry', 'Este cartão está vencido: confira a validade.'],
  ['card.expiryMonth', 'card-expiry', 'Informe a validade no formato MM/AA.'],
  ['card.expiryYear', 'card-expiry', 'Informe a validade no formato MM/AA.'],
  ['card.cvv', 'card-cvv', 'O CVV tem 3 ou 4 dígitos.'],
  ['installments', 'card-installments', 'Escolha um número de parcelas disponível.'],
];
const ADDRESS_MESSAGE = 'O endereço cadastrado para esta compra é inválido. Fale com o vendedor.';
const GENERIC_MESSAGE = 'Confira os dados informados e tente novamente.';

/**
 * The API's validation messages (`customer.document is not a valid CPF or CNPJ`) as Portuguese
 * messages by input id; anything not about one input becomes a message for the whole form.
 */
export function fieldErrors(messages) {
  const byInput = {};
  const general = [];
  for (const message of Array.isArray(messages) ? messages : [String(messages ?? '')]) {
    const text = String(message);
    const known = FIELDS.find(([name]) => text === name || text.startsWith(`${name} `));
    if (known) byInput[known[1]] ??= known[2];
    else if (text.startsWith('customer.')) general.push(ADDRESS_MESSAGE);
    else general.push(GENERIC_MESSAGE);
  }
  return { byInput, general: [...new Set(general)] };
}

/** Only http(s) is followed: a `javascript:` URL must never become a navigation. */
export function safeRedirect(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The zero bits a proof-of-work challenge (`pow1.<bits>.…`) asks for, or null when it is not one. */
export function challengeBits(challenge) {
  const m = /^pow1\.(\d{1,2})\./.exec(String(challenge ?? ''));
  return m ? Number(m[1]) : null;
}

function leadingZeroBits(bytes) {
  let bits = 0;
  for (const byte of bytes) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
}

/** Digests asked of WebCrypto at once: enough to keep it busy, few enough to keep the page responsive. */
const DIGESTS_PER_ROUND = 256;

/**
 * The nonce of a proof of work: the first decimal number whose SHA-256(challenge + nonce) starts with
 * `bits` zero bits (about 2^bits digests: a second or so for the 16 bits the server asks first).
 */
export async function solveProofOfWork(challenge, bits, subtle = globalThis.crypto.subtle) {
  const encoder = new TextEncoder();
  for (let start = 0; ; start += DIGESTS_PER_ROUND) {
    const digests = await Promise.all(
      Array.from({ length: DIGESTS_PER_ROUND }, (_, i) =>
        subtle.digest('SHA-256', encoder.encode(`${challenge}${start + i}`)),
      ),
    );
    const found = digests.findIndex((d) => leadingZeroBits(new Uint8Array(d)) >= bits);
    if (found >= 0) return String(start + found);
  }
}

/**
 * POSTs a card payment as JSON. After a few declines the server asks the client for a proof of work
 * (428 with a challenge in X-Proof-Of-Work-Challenge): the challenge is solved here and the payment
 * sent again with the solution, without the buyer doing anything but wait (`onSolving` says so).
 * @param {string} url
 * @param {string} body
 * @param {{ onSolving?: () => void, fetchImpl?: typeof fetch }} [options]
 */
export async function postWithProof(url, body, { onSolving, fetchImpl = fetch } = {}) {
  let proof;
  for (let tries = 0; ; tries++) {
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (proof) headers['x-proof-of-work'] = proof;
    const response = await fetchImpl(url, { method: 'POST', headers, body, cache: 'no-store' });
    const challenge = response.headers.get('x-proof-of-work-challenge');
    const bits = response.status === 428 ? challengeBits(challenge) : null;
    if (bits === null || tries >= 2) return response;
    onSolving?.();
    proof = `${challenge}:${await solveProofOfWork(challenge, bits)}`;
  }
}

/** A 429's sentence: the card guard's own (Portuguese, it says what to do), or the rate limit's. */
export function tooManyMessage(body) {
  return body?.code === 'card_attempts_blocked' && typeof body.message === 'string'
    ? body.message
    : 'Muitas tentativas. Aguarde um momento e tente novamente.';
}

/** `17/03/2026`: the Sao Paulo calendar day of an instant. */
export const formatDay = (iso) =>
  new Date(iso).toLocaleDateString('pt-BR', { timeZone: 'America/Sao_Paulo' });

export function successTitle(outcome) {
  return outcome.status === 'trialing' ? 'Teste grátis iniciado!' : 'Assinatura confirmada!';
}

/**
 * What the buyer reads once the page succeeded: the payment, and for a subscription (`recurring` is
 * its price, `R$ 49,90 por mês`) how it goes on: the trial's end, the renewals on the kept card or
 * through Pix Automático.
 */
export function successDetail(outcome, recurring) {
  const card = outcome.method === 'card' && outcome.card ? outcome.card : null;
  if (outcome.status === 'trialing') {
    const first = outcome.subscription?.trialEndsAt;
    return (
      `Nada foi cobrado agora. ${card ? `Seu cartão final ${card.last4} está salvo: ` : ''}` +
      `a assinatura (${recurring}) começa a ser cobrada${first ? ` em ${formatDay(first)}` : ' quando o teste terminar'}.`
    );
  }
  const how = { pix: 'Pix', boleto: 'boleto', card: 'cartão' }[outcome.method] ?? outcome.method;
  const paid = card
    ? `${formatBrl(outcome.value)} no cartão final ${card.last4}` +
      (outcome.installments > 1 ? ` em ${outcome.installments}x.` : '.')
    : `${formatBrl(outcome.value)} por ${how}.`;
  const order = outcome.orderNumber ? ` Pedido nº ${outcome.orderNumber}.` : '';
  const receipt = outcome.receiptByEmail ? ' Enviamos o recibo para o seu e-mail.' : '';
  const received = `Recebemos seu pagamento de ${paid}${order}${receipt}`;
  if (!recurring) return received;
  const renewals = card
    ? 'renovada automaticamente no mesmo cartão'
    : 'as renovações serão debitadas pelo Pix Automático';
  return `${received} Sua assinatura está ativa (${recurring}); ${renewals}.`;
}

function boot(root) {
  const $ = (id) => document.getElementById(id);
  const ref = root.dataset.ref;
  const api = `/api/public/checkout/${encodeURIComponent(ref)}`;
  const address = JSON.parse(root.dataset.address || '{}');
  const form = $('pay-form');
  const payButton = $('pay-button');
  // The button's words per method (a boleto is generated, pix and card pay): see checkout-page.ts.
  const labels = JSON.parse(payButton.dataset.labels || '{}');
  const payLabel = () => labels[method] ?? payButton.textContent;
  const formError = $('form-error');
  const sections = { pix: $('result-pix'), boleto: $('result-boleto'), success: $('result-success') };
  const tabs = [...root.querySelectorAll('[role="tab"]')];
  let method = tabs[0]?.dataset.method;
  /** Bumped whenever what is shown changes, so a poll started for an older payment stops. */
  let generation = 0;

  for (const input of root.querySelectorAll('input[data-mask]')) {
    const mask = MASKS[input.dataset.mask];
    input.value = mask(input.value);
    input.addEventListener('input', () => {
      // Keep the caret after the same number of significant characters it followed.
      const before = input.value.slice(0, input.selectionStart ?? input.value.length);
      const significant = before.replace(/[^0-9A-Za-z]/g, '').length;
      input.value = mask(input.value);
      let caret = 0;
      for (let seen = 0; caret < input.value.length && seen < significant; caret++) {
        if (/[0-9A-Za-z]/.test(input.value[caret])) seen++;
      }
      if (document.activeElement === input) input.setSelectionRange(caret, caret);
    });
  }

  function selectTab(next) {
    method = next.dataset.method;
    for (const tab of tabs) {
      const selected = tab === next;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      $(tab.getAttribute('aria-controls')).hidden = !selected;
    }
    if (!payButton.disabled) payButton.textContent = payLabel();
  }
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => selectTab(tab));
    tab.addEventListener('keydown', (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = tabs[(i + step + tabs.length) % tabs.length];
      selectTab(next);
      next.focus();
    });
  });

  function clearErrors() {
    formError.hidden = true;
    formError.textContent = '';
    for (const p of root.querySelectorAll('.field-error')) {
      p.hidden = true;
      p.textContent = '';
    }
    for (const input of root.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  }

  function showFormError(text) {
    formError.textContent = text;
    formError.hidden = false;
  }

  function showErrors({ byInput, general }) {
    for (const [id, text] of Object.entries(byInput)) {
      const input = $(id);
      const slot = $(`${id}-error`);
      if (!input || !slot || input.closest('[hidden]')) {
        general.push(text);
        continue;
      }
      input.setAttribute('aria-invalid', 'true');
      slot.textContent = text;
      slot.hidden = false;
    }
    if (general.length > 0) showFormError([...new Set(general)].join(' '));
    const first = root.querySelector('[aria-invalid="true"]');
    (first ?? formError).focus?.();
  }

  const value = (id) => $(id).value.trim();

  /** What the browser can tell before asking the API; the API checks everything again. */
  function localErrors(card) {
    const byInput = {};
    if (!value('buyer-name')) byInput['buyer-name'] = 'Informe seu nome completo.';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value('buyer-email')))
      byInput['buyer-email'] = 'Informe um e-mail válido.';
    const doc = value('buyer-document').replace(/[^0-9A-Za-z]/g, '');
    if (doc.length !== 11 && doc.length !== 14)
      byInput['buyer-document'] = 'Informe um CPF (11 dígitos) ou CNPJ (14).';
    const phone = onlyDigits(value('buyer-phone'));
    if (phone.length !== 10 && phone.length !== 11)
      byInput['buyer-phone'] = 'Informe um telefone com DDD, com 10 ou 11 dígitos.';
    if (card) {
      const digits = onlyDigits(value('card-number'));
      if (digits.length < 12 || digits.length > 19) byInput['card-number'] = 'Confira o número do cartão.';
      if (!value('card-holder')) byInput['card-holder'] = 'Informe o nome como está impresso no cartão.';
      if (!parseExpiry(value('card-expiry'))) byInput['card-expiry'] = 'Informe a validade no formato MM/AA.';
      if (!/^\d{3,4}$/.test(value('card-cvv'))) byInput['card-cvv'] = 'O CVV tem 3 ou 4 dígitos.';
    }
    return byInput;
  }

  function paymentBody() {
    const body = {
      paymentMethod: method,
      customer: {
        ...address,
        name: value('buyer-name'),
        email: value('buyer-email'),
        document: value('buyer-document'),
        phone: value('buyer-phone'),
      },
    };
    if (method === 'card') {
      const expiry = parseExpiry(value('card-expiry'));
      // A subscription's page has neither: one installment, and the card is always kept.
      if ($('card-installments')) body.installments = Number($('card-installments').value);
      body.card = {
        number: onlyDigits(value('card-number')),
        holderName: value('card-holder'),
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        cvv: value('card-cvv'),
      };
      if ($('card-save')) body.saveCard = $('card-save').checked;
    }
    return body;
  }

  function forgetCard() {
    for (const id of ['card-number', 'card-cvv']) if ($(id)) $(id).value = '';
  }

  function showOnly(section) {
    form.hidden = section !== null;
    for (const s of Object.values(sections)) s.hidden = s !== section;
  }

  function showForm() {
    generation++;
    showOnly(null);
    payButton.disabled = false;
    payButton.textContent = payLabel();
  }

  function showSuccess(outcome) {
    generation++;
    showOnly(sections.success);
    // Paid: there is nothing left to cancel.
    const cancel = $('cancel-link');
    if (cancel) cancel.parentElement.hidden = true;
    const recurring = root.dataset.recurring;
    if (recurring) $('success-title').textContent = successTitle(outcome);
    $('success-detail').textContent = successDetail(outcome, recurring);
    const target = outcome.redirectUrl ? safeRedirect(outcome.redirectUrl) : null;
    if (target) {
      const link = $('success-link');
      link.href = target;
      link.hidden = false;
      $('success-redirect').hidden = false;
      setTimeout(() => window.location.assign(target), REDIRECT_DELAY_MS);
    }
    sections.success.focus?.();
  }

  function showPending(outcome) {
    generation++;
    if (outcome.method === 'pix' && outcome.pix) {
      $('pix-qr').src = outcome.pix.qrCodeImage;
      $('pix-code').value = outcome.pix.qrCode;
      const expires = new Date(outcome.pix.expiresAt);
      $('pix-expires').textContent = `Este código vale até ${expires.toLocaleString('pt-BR', {
        timeZone: 'America/Sao_Paulo',
        dateStyle: 'short',
        timeStyle: 'short',
      })}.`;
      showOnly(sections.pix);
      poll(outcome, generation, expires.getTime());
    } else if (outcome.method === 'boleto' && outcome.boleto) {
      $('boleto-line').value = outcome.boleto.formattedLine || outcome.boleto.digitableLine;
      // The boleto híbrido: its pix, paid at once instead of the boleto.
      const hybrid = Boolean(outcome.boleto.pixQrCode && outcome.boleto.pixQrCodeImage);
      $('boleto-pix').hidden = !hybrid;
      if (hybrid) {
        $('boleto-pix-qr').src = outcome.boleto.pixQrCodeImage;
        $('boleto-pix-code').value = outcome.boleto.pixQrCode;
      }
      const pdf = safeRedirect(outcome.boleto.pdfUrl);
      if (pdf) $('boleto-pdf').href = pdf;
      const [y, m, d] = String(outcome.boleto.dueDate).split('-');
      $('boleto-due').textContent = `Vencimento: ${d}/${m}/${y}. Pague em qualquer banco, lotérica ou app.`;
      showOnly(sections.boleto);
      poll(outcome, generation, Date.now() + BOLETO_POLL_LIMIT_MS);
    } else {
      showForm();
    }
  }

  function show(outcome, { initial = false } = {}) {
    if (outcome.status === 'paid' || outcome.status === 'trialing') return showSuccess(outcome);
    if (outcome.status === 'pending') return showPending(outcome);
    showForm();
    forgetCard();
    // A payment that failed before this visit is not news; one that failed just now is.
    if (initial) return;
    const fallback =
      outcome.status === 'canceled'
        ? 'Este pagamento expirou ou foi cancelado. Escolha a forma de pagamento e tente de novo.'
        : 'O pagamento não foi aprovado. Confira os dados ou use outra forma de pagamento.';
    showFormError(outcome.failure?.message || fallback);
  }

  async function poll(outcome, mine, until) {
    const every = POLL_MS[outcome.method] ?? POLL_MS.boleto;
    let wait = every;
    while (mine === generation) {
      await sleep(wait);
      if (mine !== generation) return;
      wait = every;
      let response;
      try {
        response = await fetch(`${api}/payments/${encodeURIComponent(outcome.paymentId)}`, {
          headers: { accept: 'application/json' },
          cache: 'no-store',
        });
      } catch {
        continue;
      }
      if (mine !== generation) return;
      if (response.status === 429) {
        wait = Math.max(every, Number(response.headers.get('retry-after') || 0) * 1000);
        continue;
      }
      if (!response.ok) continue;
      const latest = await response.json();
      if (mine !== generation) return;
      if (latest.status !== 'pending') return show(latest);
      if (Date.now() > until + every) {
        // Past the pix code's life (or the boleto page's patience): stop asking; the buyer can start again.
        if (outcome.method === 'boleto') $('boleto-waiting').hidden = true;
        else show({ ...latest, status: 'canceled', failure: null });
        return;
      }
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    const local = localErrors(method === 'card');
    if (Object.keys(local).length > 0) return showErrors({ byInput: local, general: [] });
    payButton.disabled = true;
    payButton.textContent = 'Processando…';
    let response;
    let body;
    try {
      response = await postWithProof(`${api}/pay`, JSON.stringify(paymentBody()), {
        onSolving: () => {
          payButton.textContent = 'Verificando…';
        },
      });
      body = await response.json().catch(() => ({}));
    } catch {
      payButton.disabled = false;
      payButton.textContent = payLabel();
      return showFormError('Não foi possível falar com o servidor. Confira sua conexão e tente novamente.');
    }
    payButton.disabled = false;
    payButton.textContent = payLabel();
    if (response.status === 201 || response.status === 200) return show(body);
    if (response.status === 400) {
      const errors = fieldErrors(body.message);
      if (errors.byInput['card-number']) forgetCard();
      return showErrors(errors);
    }
    if (response.status === 409 || response.status === 404) {
      payButton.disabled = true;
      return showFormError(
        'Este pagamento não está mais disponível: o link expirou ou já foi pago. Recarregue a página.',
      );
    }
    if (response.status === 429) return showFormError(tooManyMessage(body));
    showFormError('Não foi possível concluir o pagamento agora. Tente novamente em instantes.');
  });

  for (const button of root.querySelectorAll('[data-action="change-method"]')) {
    button.addEventListener('click', () => {
      showForm();
      payButton.focus();
    });
  }

  for (const button of root.querySelectorAll('[data-copy]')) {
    button.addEventListener('click', async () => {
      const source = $(button.dataset.copy);
      try {
        await navigator.clipboard.writeText(source.value);
      } catch {
        source.select();
        document.execCommand?.('copy');
      }
      button.textContent = 'Copiado!';
      setTimeout(() => {
        button.textContent = 'Copiar';
      }, 2000);
    });
  }

  if (root.dataset.payment) show(JSON.parse(root.dataset.payment), { initial: true });
}

if (typeof document !== 'undefined') {
  const root = document.getElementById('checkout');
  if (root?.dataset.state === 'open') boot(root);
}
