/**
 * The pay link page's script (an ES module from this origin, under the pages' CSP). The page is
 * rendered on the server with the cycle's pix and boleto; this script copies their codes and sends
 * the card form to the public JSON route. It reuses the checkout script's masks and messages
 * (importing that module boots nothing here: it only starts on the checkout page's root).
 * Card data is read from inputs without a `name`, goes only into the POST body and is never
 * written to storage, a URL or the console.
 */
import {
  fieldErrors,
  maskCardNumber,
  maskCvv,
  maskExpiry,
  onlyDigits,
  parseExpiry,
  postWithProof,
  tooManyMessage,
} from '/pages/assets/checkout.js';

const $ = (id) => document.getElementById(id);

const SUCCESS = {
  paid: ['Pagamento confirmado!', 'Obrigado. O pagamento desta cobrança foi aprovado.'],
  card_saved: [
    'Cartão salvo!',
    'Nada foi cobrado agora. A primeira cobrança será feita neste cartão quando o período de teste terminar.',
  ],
};

function bootCopy(root) {
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
}

function bootCard(root) {
  const form = $('card-form');
  if (!form) return;
  const api = `/api/public/cobranca/${encodeURIComponent(root.dataset.token)}`;
  const button = $('pay-button');
  const label = button.textContent;
  const masks = { 'card-number': maskCardNumber, 'card-expiry': maskExpiry, 'card-cvv': maskCvv };
  for (const [id, mask] of Object.entries(masks)) {
    $(id).addEventListener('input', (e) => {
      e.target.value = mask(e.target.value);
    });
  }

  const formError = $('form-error');
  const clear = () => {
    formError.hidden = true;
    for (const p of form.querySelectorAll('.field-error')) p.hidden = true;
    for (const input of form.querySelectorAll('input')) input.removeAttribute('aria-invalid');
  };
  const showFormError = (text) => {
    formError.textContent = text;
    formError.hidden = false;
  };
  const showErrors = ({ byInput, general }) => {
    for (const [id, text] of Object.entries(byInput)) {
      const p = $(`${id}-error`);
      p.textContent = text;
      p.hidden = false;
      $(id).setAttribute('aria-invalid', 'true');
    }
    if (general.length > 0) showFormError(general.join(' '));
    const first = Object.keys(byInput)[0];
    if (first) $(first).focus();
  };

  function local() {
    const errors = {};
    const number = onlyDigits($('card-number').value);
    if (number.length < 12 || number.length > 19) errors['card-number'] = 'Confira o número do cartão.';
    if (!$('card-holder').value.trim())
      errors['card-holder'] = 'Informe o nome como está impresso no cartão.';
    if (!parseExpiry($('card-expiry').value)) errors['card-expiry'] = 'Informe a validade no formato MM/AA.';
    if (!/^\d{3,4}$/.test($('card-cvv').value)) errors['card-cvv'] = 'O CVV tem 3 ou 4 dígitos.';
    return errors;
  }

  function done(outcome) {
    const [title, detail] = SUCCESS[outcome.status];
    $('pay-card').hidden = true;
    for (const id of ['pay-pix', 'pay-boleto']) if ($(id)) $(id).hidden = true;
    $('success-title').textContent = title;
    $('success-detail').textContent = outcome.card ? `${detail} Cartão final ${outcome.card.last4}.` : detail;
    $('result-success').hidden = false;
    root.dataset.state = outcome.status;
    const status = $('charge-status')?.querySelector('strong');
    if (status && outcome.status === 'paid') status.textContent = 'Paga';
    $('success-title').focus?.();
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clear();
    const errors = local();
    if (Object.keys(errors).length > 0) return showErrors({ byInput: errors, general: [] });
    const expiry = parseExpiry($('card-expiry').value);
    button.disabled = true;
    button.textContent = 'Processando…';
    let response;
    let body;
    try {
      const card = {
        number: onlyDigits($('card-number').value),
        holderName: $('card-holder').value.trim(),
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        cvv: $('card-cvv').value,
      };
      response = await postWithProof(`${api}/card`, JSON.stringify({ card }), {
        onSolving: () => {
          button.textContent = 'Verificando…';
        },
      });
      body = await response.json().catch(() => ({}));
    } catch {
      body = null;
    }
    button.disabled = false;
    button.textContent = label;
    if (!response || body === null)
      return showFormError('Não foi possível falar com o servidor. Confira sua conexão e tente novamente.');
    if (response.status === 201 && SUCCESS[body.status]) return done(body);
    if (response.status === 201) {
      $('card-cvv').value = '';
      return showFormError(body.failure?.message ?? 'O pagamento não foi aprovado. Tente novamente.');
    }
    if (response.status === 400) return showErrors(fieldErrors(body.message));
    if (response.status === 409 || response.status === 404) {
      button.disabled = true;
      return showFormError(
        typeof body.message === 'string' ? `${body.message} Recarregue a página.` : 'Recarregue a página.',
      );
    }
    if (response.status === 429) return showFormError(tooManyMessage(body));
    showFormError('Não foi possível concluir o pagamento agora. Tente novamente em instantes.');
  });
}

if (typeof document !== 'undefined') {
  const root = $('charge');
  if (root && (root.dataset.state === 'open' || root.dataset.state === 'failed')) {
    bootCopy(root);
    bootCard(root);
  }
}
