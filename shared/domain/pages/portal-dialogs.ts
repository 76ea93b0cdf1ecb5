import { html } from './html';
import { cardText, formatSaoPauloDay } from './portal-format';
import type { PortalCard, PortalSubscription } from './portal-page';

/**
 * The dialogs of a subscription's actions, rendered with the page (their texts name the
 * subscription's own dates) and opened by the script.
 */

/** The subscription's own cancel rules (its product's configuration) shape the dialog. */
export function cancelDialog(s: PortalSubscription) {
  if (!s.actions.cancel) return '';
  const periodEnd = formatSaoPauloDay(s.currentPeriodEnd);
  // A scheduled cancellation can only be brought forward; a forced period-end one never ends access early.
  const scheduled = s.status === 'pending_cancellation';
  const choice = scheduled
    ? html`<p>O cancelamento já está agendado para ${periodEnd}. Confirme para encerrar a assinatura agora.</p>`
    : s.cancelRules.atPeriodEndOnly
      ? html`<p id="cancel-when-${s.id}" data-when="period_end">A assinatura será cancelada no fim do período, em ${periodEnd}. Até lá você continua com acesso e não haverá novas cobranças.</p>`
      : html`<fieldset class="cancel-when"><legend>Quando cancelar?</legend>
<label class="check"><input type="radio" name="when-${s.id}" value="period_end" checked> No fim do período (${periodEnd})</label>
<label class="check"><input type="radio" name="when-${s.id}" value="now"> Agora</label>
</fieldset>`;
  const required = s.cancelRules.reasonRequired;
  return html`<dialog class="dialog" id="cancel-dialog-${s.id}" aria-labelledby="cancel-title-${s.id}" data-subscription="${s.id}" data-period-end="${periodEnd}" data-scheduled="${scheduled ? 'true' : 'false'}">
<form class="dialog-form" data-form="cancel" data-subscription="${s.id}" method="dialog" novalidate>
<h2 id="cancel-title-${s.id}">Cancelar ${s.subscriptionPrice.product.name}</h2>
${choice}
<div class="field">
<label for="cancel-reason-${s.id}">Motivo do cancelamento${required ? '' : ' (opcional)'}</label>
<textarea id="cancel-reason-${s.id}" rows="3" maxlength="500"${required ? html` required aria-required="true"` : ''} aria-describedby="cancel-reason-${s.id}-error"></textarea>
<p class="field-error" id="cancel-reason-${s.id}-error" hidden></p>
</div>
<div class="form-error" role="alert" hidden></div>
<div class="dialog-buttons">
<button type="submit" class="danger" data-submit>Confirmar cancelamento</button>
<button type="button" class="secondary" data-action="close-dialog">Voltar</button>
</div>
</form>
</dialog>`;
}

interface CardFieldOptions {
  id: string;
  label: string;
  autocomplete: string;
  mask: string;
  type?: string;
  placeholder?: string;
  maxlength: number;
}

/** Like the checkout's: no `name`, so a form submitted around the script sends no card data anywhere. */
const cardField = (o: CardFieldOptions) => html`<div class="field">
<label for="${o.id}">${o.label}</label>
<input id="${o.id}" type="${o.type ?? 'text'}" autocomplete="${o.autocomplete}"${
  o.mask === 'text' ? '' : html` inputmode="numeric"`
} data-mask="${o.mask}"${o.placeholder ? html` placeholder="${o.placeholder}"` : ''} maxlength="${o.maxlength}" aria-describedby="${o.id}-error">
<p class="field-error" id="${o.id}-error" hidden></p>
</div>`;

export function cardDialog(s: PortalSubscription, cards: readonly PortalCard[]) {
  if (!s.actions.updatePaymentMethod) return '';
  const current = s.paymentMethod?.id ?? null;
  const others = cards.filter((c) => c.id !== current);
  const id = s.id;
  const options = others.map(
    (c, i) =>
      html`<label class="check card-option"><input type="radio" name="card-${id}" value="${c.id}"${i === 0 ? html` checked` : ''}> ${cardText(c.brand, c.last4)} <span class="hint">validade ${String(c.expiryMonth).padStart(2, '0')}/${String(c.expiryYear).slice(-2)}</span></label>`,
  );
  return html`<dialog class="dialog" id="card-dialog-${id}" aria-labelledby="card-title-${id}" data-subscription="${id}">
<form class="dialog-form" data-form="card" data-subscription="${id}" method="dialog" novalidate>
<h2 id="card-title-${id}">Trocar cartão</h2>
${s.paymentMethod ? html`<p class="hint">Cartão atual: ${cardText(s.paymentMethod.cardBrand, s.paymentMethod.cardLast4)}</p>` : ''}
<fieldset class="card-choice"><legend>Usar nas próximas cobranças</legend>
${options}
<label class="check card-option"><input type="radio" name="card-${id}" value="new"${others.length === 0 ? html` checked` : ''}> Um novo cartão</label>
</fieldset>
<div class="new-card" id="new-card-${id}"${others.length === 0 ? '' : html` hidden`}>
${cardField({ id: `card-number-${id}`, label: 'Número do cartão', autocomplete: 'cc-number', mask: 'card', placeholder: '0000 0000 0000 0000', maxlength: 23 })}
${cardField({ id: `card-holder-${id}`, label: 'Nome no cartão', autocomplete: 'cc-name', mask: 'text', maxlength: 100 })}
<div class="row">
${cardField({ id: `card-expiry-${id}`, label: 'Validade', autocomplete: 'cc-exp', mask: 'expiry', placeholder: 'MM/AA', maxlength: 5 })}
${cardField({ id: `card-cvv-${id}`, label: 'CVV', type: 'password', autocomplete: 'cc-csc', mask: 'cvv', placeholder: '123', maxlength: 4 })}
</div>
</div>
<div class="form-error" role="alert" hidden></div>
<div class="dialog-buttons">
<button type="submit" class="primary" data-submit>Salvar cartão</button>
<button type="button" class="secondary" data-action="close-dialog">Voltar</button>
</div>
</form>
</dialog>`;
}
