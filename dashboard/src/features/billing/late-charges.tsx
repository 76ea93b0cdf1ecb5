import { useId } from 'react';
import type { Schemas } from '../../api/client';
import { formatBrl, formatDay } from '../../components/format';
import { ErrorNote, Field } from '../../components/ui';

/**
 * Fine (multa), interest (juros de mora) and early-payment discount as the seller types them, the
 * legal caps checked before the API is asked (it checks them again: shared/domain/payments/amount-due.ts),
 * and the terms a charge shows, in Portuguese.
 */

/** CDC art. 52 §1: a consumer contract's fine is at most 2% of the amount. */
export const MAX_FINE_PERCENT = 2;
/** Juros de mora of at most 1% a month (CC art. 406 with CTN art. 161 §1). */
export const MAX_INTEREST_PERCENT = 1;
/** The API takes at most three discount tiers per charge. */
export const MAX_DISCOUNT_TIERS = 3;

export const CAPS_TEXT =
  'Limites legais: multa de até 2% do valor (Código de Defesa do Consumidor, art. 52 §1) e juros de até 1% ao mês, proporcionais por dia de atraso.';

type RateType = 'percentage' | 'fixed';
type Terms = Pick<Schemas['ScheduledChargeDetail'], 'fine' | 'interest' | 'discounts'>;
export type LateChargeDefaults = NonNullable<Schemas['EffectivePortalConfiguration']['lateCharges']>;

/** What the inputs hold: decimal texts as typed ("2,5"), empty for none. */
export interface LateChargeDraft {
  fineType: RateType;
  fine: string;
  interest: string;
  discounts: { until: string; type: RateType; value: string }[];
}

export const EMPTY_DRAFT: LateChargeDraft = { fineType: 'percentage', fine: '', interest: '', discounts: [] };

/** A decimal typed with a comma or a dot: null when empty, NaN when it is not a number. */
export function parseDecimal(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

const decimalText = (value: number) => String(value).replace('.', ',');

/** A draft from saved defaults (a seller's or a product's). */
export function draftOfDefaults(d: LateChargeDefaults | null | undefined): LateChargeDraft {
  return {
    ...EMPTY_DRAFT,
    fine: d?.fine ? decimalText(d.fine.value) : '',
    interest: d?.interest ? decimalText(d.interest.percentPerMonth) : '',
  };
}

/**
 * The caps and the shape the seller must get right before the API is asked (the API checks these and
 * the rest, such as two decimal places, and its refusal shows under the same field).
 * The draft's problems by the API's field names (`fine`, `interest`, `discounts[0]`), in Portuguese;
 * `charge` (amount in centavos, due date) checks a fixed fine and the tiers against the charge.
 */
export function checkDraft(
  draft: LateChargeDraft,
  charge?: { amount: number; dueDate: string },
): Record<string, string> {
  const errors: Record<string, string> = {};
  const fine = parseDecimal(draft.fine);
  if (fine !== null) {
    if (Number.isNaN(fine) || fine <= 0) errors.fine = 'Multa: informe um número maior que zero.';
    else if (draft.fineType === 'percentage' && fine > MAX_FINE_PERCENT)
      errors.fine = 'Multa: no máximo 2% do valor (CDC, art. 52 §1).';
    else if (draft.fineType === 'fixed' && charge && charge.amount > 0) {
      // The API's cap: 2% of the amount in centavos, rounded half up (shared/money.ts percentOf).
      const cap = Math.floor((charge.amount * 200 + 5_000) / 10_000);
      if (Math.round(fine * 100) > cap)
        errors.fine = `Multa: no máximo 2% do valor, ${formatBrl(cap / 100)} nesta cobrança (CDC, art. 52 §1).`;
    }
  }
  const interest = parseDecimal(draft.interest);
  if (interest !== null) {
    if (Number.isNaN(interest) || interest <= 0) errors.interest = 'Juros: informe um número maior que zero.';
    else if (interest > MAX_INTEREST_PERCENT) errors.interest = 'Juros: no máximo 1% ao mês.';
  }
  draft.discounts.forEach((tier, i) => {
    const field = `discounts[${i}]`;
    const label = `Desconto ${i + 1}`;
    const value = parseDecimal(tier.value);
    if (!tier.until) errors[field] = `${label}: informe até que dia vale.`;
    else if (charge?.dueDate && tier.until > charge.dueDate)
      errors[field] = `${label}: a data deve ser até o vencimento.`;
    else if (draft.discounts.some((other, j) => j < i && other.until === tier.until))
      errors[field] = `${label}: repete a data de outra faixa.`;
    else if (value === null || Number.isNaN(value) || value <= 0)
      errors[field] = `${label}: informe um valor maior que zero.`;
    else if (tier.type === 'percentage' && value >= 100)
      errors[field] = `${label}: deve deixar algo a pagar.`;
    else if (tier.type === 'fixed' && charge && charge.amount > 0 && value * 100 >= charge.amount)
      errors[field] = `${label}: deve deixar algo a pagar.`;
  });
  return errors;
}

/** The defaults' body (`lateCharges` of a portal configuration): null when both are empty. */
export function defaultsBody(draft: LateChargeDraft): LateChargeDefaults | null {
  const fine = parseDecimal(draft.fine);
  const interest = parseDecimal(draft.interest);
  if (fine === null && interest === null) return null;
  return {
    fine: fine === null ? null : { type: 'percentage', value: fine },
    interest: interest === null ? null : { percentPerMonth: interest },
  };
}

/**
 * A charge's three fields. With `inherit` the fine and interest are left out (the product's or the
 * seller's apply); otherwise an empty one is sent as null (none on this charge).
 */
export function chargeBody(draft: LateChargeDraft, inherit: boolean) {
  const fine = parseDecimal(draft.fine);
  const interest = parseDecimal(draft.interest);
  const discounts = draft.discounts.map((d) => ({
    until: d.until,
    type: d.type,
    value: parseDecimal(d.value) ?? 0,
  }));
  if (inherit) return { discounts };
  return {
    fine: fine === null ? null : { type: draft.fineType, value: fine },
    interest: interest === null ? null : { percentPerMonth: interest },
    discounts,
  };
}

const rateText = (rate: { type: RateType; value: number }) =>
  rate.type === 'percentage' ? `${decimalText(rate.value)}%` : formatBrl(rate.value);

/** "Multa de 2% · juros de 1% ao mês · 5% de desconto até 05/12/2026", or null for none. */
export function termsText(terms: Partial<Terms> | null | undefined): string | null {
  if (!terms) return null;
  const parts = [
    terms.fine ? `multa de ${rateText(terms.fine)}` : null,
    terms.interest ? `juros de ${decimalText(terms.interest.percentPerMonth)}% ao mês` : null,
    ...(terms.discounts ?? []).map((d) => `${rateText(d)} de desconto até ${formatDay(d.until)}`),
  ].filter((p): p is string => p !== null);
  if (parts.length === 0) return null;
  const text = parts.join(' · ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * An example the seller can check by hand: R$ 100,00 paid `days` late, computed as the API does
 * (the fine once, interest pro rata over a 30-day month, rounded half up to the centavo).
 */
export function lateExample(draft: LateChargeDraft, days = 10): string | null {
  const amount = 10_000;
  const fine = parseDecimal(draft.fine);
  const interest = parseDecimal(draft.interest);
  const fineOk = fine !== null && !Number.isNaN(fine) && fine <= MAX_FINE_PERCENT;
  const interestOk = interest !== null && !Number.isNaN(interest) && interest <= MAX_INTEREST_PERCENT;
  if (!fineOk && !interestOk) return null;
  const fineCentavos = fineOk ? Math.floor((amount * Math.round(fine * 100) + 5_000) / 10_000) : 0;
  const interestCentavos = interestOk
    ? Math.floor((amount * Math.round(interest * 100) * days + 150_000) / 300_000)
    : 0;
  const parts = [
    fineOk ? `multa ${formatBrl(fineCentavos / 100)}` : null,
    interestOk ? `juros ${formatBrl(interestCentavos / 100)}` : null,
  ].filter(Boolean);
  return `Exemplo: uma cobrança de R$ 100,00 paga ${days} dias depois do vencimento sai por ${formatBrl(
    (amount + fineCentavos + interestCentavos) / 100,
  )} (${parts.join(' + ')}).`;
}

/** The API's messages about one field (`fine`, `interest`, `discounts`), read under that field. */
const FIELD_PREFIXES = (field: string) => [field, `lateCharges.${field}`];

/**
 * The inputs of fine and interest (and, on a charge, the fixed fine and the discount tiers), with the
 * caps shown, the client's check under each field and the API's refusal of that field under it too.
 */
export function LateChargeInputs(props: {
  draft: LateChargeDraft;
  onChange: (draft: LateChargeDraft) => void;
  /** `defaults`: a percentage fine and interest (a seller's or a product's); `charge`: all three. */
  kind: 'defaults' | 'charge';
  errors: Record<string, string>;
  /** The API's refusal of the last save. */
  apiError?: unknown;
  /** What an empty field means, said under the inputs. */
  emptyMeans: string;
  dueDate?: string;
  disabled?: boolean;
  /** On a charge: whether the fine and interest are the product's or the seller's (the inputs hidden). */
  inherit?: { value: boolean; onChange: (inherit: boolean) => void };
}) {
  const { draft, onChange, errors } = props;
  const typeId = useId();
  const set = (patch: Partial<LateChargeDraft>) => onChange({ ...draft, ...patch });
  const fixedFine = props.kind === 'charge' && draft.fineType === 'fixed';
  const tiers = draft.discounts;
  const setTier = (i: number, patch: Partial<LateChargeDraft['discounts'][number]>) =>
    set({ discounts: tiers.map((t, j) => (j === i ? { ...t, ...patch } : t)) });
  return (
    <fieldset className="late-charges" disabled={props.disabled}>
      <legend>{props.kind === 'charge' ? 'Multa, juros e desconto' : 'Multa e juros'}</legend>
      <p className="hint">{CAPS_TEXT}</p>
      {props.inherit ? (
        <label className="check">
          <input
            type="checkbox"
            checked={props.inherit.value}
            onChange={(e) => props.inherit?.onChange(e.target.checked)}
          />
          Usar a multa e os juros padrão (os do produto, se ele tiver; senão os da sua conta, em Multa e
          juros)
        </label>
      ) : null}
      {props.inherit?.value ? null : (
        <>
          <div className="filters">
            {props.kind === 'charge' ? (
              <div className="field">
                <label htmlFor={typeId}>Tipo de multa</label>
                <select
                  id={typeId}
                  value={draft.fineType}
                  onChange={(e) => set({ fineType: e.target.value as RateType })}
                >
                  <option value="percentage">Percentual</option>
                  <option value="fixed">Valor fixo</option>
                </select>
              </div>
            ) : null}
            <Field
              label={fixedFine ? 'Multa (R$)' : 'Multa (%)'}
              inputMode="decimal"
              placeholder={fixedFine ? '2,00' : '2'}
              value={draft.fine}
              onChange={(e) => set({ fine: e.target.value })}
              aria-invalid={errors.fine ? true : undefined}
              hint={fixedFine ? 'Até 2% do valor da cobrança.' : 'Até 2%, cobrada uma vez após o vencimento.'}
            />
            <Field
              label="Juros ao mês (%)"
              inputMode="decimal"
              placeholder="1"
              value={draft.interest}
              onChange={(e) => set({ interest: e.target.value })}
              aria-invalid={errors.interest ? true : undefined}
              hint="Até 1% ao mês, proporcional por dia de atraso."
            />
          </div>
          <FieldProblem text={errors.fine} />
          <ErrorNote error={props.apiError} portuguese only={FIELD_PREFIXES('fine')} />
          <FieldProblem text={errors.interest} />
          <ErrorNote error={props.apiError} portuguese only={FIELD_PREFIXES('interest')} />
        </>
      )}
      {props.kind === 'charge' ? (
        <div className="stack discount-tiers">
          <p>
            <strong>Desconto por pagamento antecipado</strong>{' '}
            <span className="muted">(até {MAX_DISCOUNT_TIERS} faixas, cada uma até uma data)</span>
          </p>
          {tiers.map((tier, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a tier is its position in the list
            <div key={i} className="filters discount-tier">
              <Field
                label={`Desconto ${i + 1}: pago até`}
                type="date"
                value={tier.until}
                onChange={(e) => setTier(i, { until: e.target.value })}
              />
              <div className="field">
                <label htmlFor={`${typeId}-tier-${i}`}>{`Desconto ${i + 1}: tipo`}</label>
                <select
                  id={`${typeId}-tier-${i}`}
                  value={tier.type}
                  onChange={(e) => setTier(i, { type: e.target.value as RateType })}
                >
                  <option value="percentage">Percentual</option>
                  <option value="fixed">Valor fixo</option>
                </select>
              </div>
              <Field
                label={`Desconto ${i + 1}: ${tier.type === 'percentage' ? '%' : 'R$'}`}
                inputMode="decimal"
                value={tier.value}
                onChange={(e) => setTier(i, { value: e.target.value })}
              />
              <button
                type="button"
                className="link"
                onClick={() => set({ discounts: tiers.filter((_, j) => j !== i) })}
              >
                Remover desconto {i + 1}
              </button>
              <FieldProblem text={errors[`discounts[${i}]`]} />
            </div>
          ))}
          <ErrorNote error={props.apiError} portuguese only={FIELD_PREFIXES('discounts')} />
          {tiers.length < MAX_DISCOUNT_TIERS ? (
            <p>
              <button
                type="button"
                onClick={() =>
                  set({
                    discounts: [...tiers, { until: props.dueDate ?? '', type: 'percentage', value: '' }],
                  })
                }
              >
                Adicionar faixa de desconto
              </button>
            </p>
          ) : null}
        </div>
      ) : null}
      {props.inherit?.value ? null : <p className="muted">{props.emptyMeans}</p>}
    </fieldset>
  );
}

/** A field's problem found before sending (read out as the API's are). */
function FieldProblem({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <div role="alert" className="error">
      <p>{text}</p>
    </div>
  );
}

/** The prefixes LateChargeInputs shows under its fields: a form's general ErrorNote leaves them out. */
export const LATE_CHARGE_FIELDS = ['fine', 'interest', 'discounts'].flatMap(FIELD_PREFIXES);
