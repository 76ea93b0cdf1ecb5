import { type FormEvent, useId, useState } from 'react';
import type { Schemas } from '../../api/client';
import { reaisToCentavos } from '../../components/format';
import { MoneyField } from '../../components/money-field';
import { ErrorNote, Field } from '../../components/ui';

type Product = Schemas['Product'];

/** What the form sends: the create body, or the fields an edit changed. */
export interface ProductBody {
  name?: string;
  image?: string;
  value?: number;
  description?: string | null;
  pix?: boolean;
  creditCard?: boolean;
  boleto?: boolean;
  installments?: number;
  carne?: { enabled?: boolean; maxInstallments?: number; interestFactors?: Record<string, number> };
}

/** The API's field names as the form labels them (its messages start with the field). */
export const PRODUCT_FIELDS: Record<string, string> = {
  name: 'Nome',
  image: 'Imagem (URL)',
  value: 'Preço',
  description: 'Descrição',
  installments: 'Parcelas no cartão',
  carne: 'Carnê',
  'carne.maxInstallments': 'Máximo de parcelas do carnê',
  'carne.interestFactors': 'Juros do carnê',
  body: 'Formulário',
};

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A factor as typed ("1,0349" or "1.0349") to the API's number; empty means none. */
const parseFactor = (text: string): number | null => {
  const t = text.trim().replace(',', '.');
  return t === '' ? null : Number(t);
};
const showFactor = (f: number | undefined) => (f === undefined ? '' : String(f).replace('.', ','));

/**
 * A product's fields (creation and edition share it): price in R$, methods, card installments and
 * the carnê settings (up to how many boletos, and an interest factor per number of installments).
 * An edit sends only the fields that changed: a product priced below R$ 5,00 keeps its price
 * unless the seller changes it (the API checks the minimum only on a sent `value`).
 */
export function ProductForm(props: {
  initial?: Product;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (body: ProductBody) => void;
}) {
  const p = props.initial;
  const [name, setName] = useState(p?.name ?? '');
  const [image, setImage] = useState(p?.image ?? '');
  const [value, setValue] = useState(p ? reaisToCentavos(p.value) : 0);
  const [description, setDescription] = useState(p?.description ?? '');
  const [pix, setPix] = useState(p?.pix ?? true);
  const [creditCard, setCreditCard] = useState(p?.creditCard ?? true);
  const [boleto, setBoleto] = useState(p?.boleto ?? true);
  const [installments, setInstallments] = useState(p?.installments ?? 1);
  const [carneEnabled, setCarneEnabled] = useState(p?.carne.enabled ?? false);
  const [maxInstallments, setMaxInstallments] = useState(p?.carne.maxInstallments ?? 12);
  const [factors, setFactors] = useState<Record<string, string>>(() =>
    Object.fromEntries(range(2, 12).map((n) => [String(n), showFactor(p?.carne.interestFactors[String(n)])])),
  );
  const descriptionId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const interestFactors: Record<string, number> = {};
    for (const n of range(2, maxInstallments)) {
      const f = parseFactor(factors[String(n)] ?? '');
      if (f !== null && f !== p?.carne.interestFactors[String(n)]) interestFactors[String(n)] = f;
    }
    const full: ProductBody = {
      name,
      image,
      value: value / 100,
      description: description.trim() || null,
      pix,
      creditCard,
      boleto,
      installments,
    };
    const carne: NonNullable<ProductBody['carne']> = {};
    if (!p || carneEnabled !== p.carne.enabled) carne.enabled = carneEnabled;
    if (!p || maxInstallments !== p.carne.maxInstallments) carne.maxInstallments = maxInstallments;
    if (Object.keys(interestFactors).length > 0) carne.interestFactors = interestFactors;
    if (!p) {
      props.onSubmit({ ...full, carne });
      return;
    }
    const changed: ProductBody = {};
    for (const key of Object.keys(full) as (keyof typeof full)[]) {
      const was = key === 'value' ? p.value : p[key];
      if (full[key] !== was) Object.assign(changed, { [key]: full[key] });
    }
    if (Object.keys(carne).length > 0) changed.carne = carne;
    props.onSubmit(changed);
  };

  return (
    <form onSubmit={submit} className="stack">
      <Field label="Nome" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      <Field
        label="Imagem (URL)"
        type="url"
        inputMode="url"
        placeholder="https://sua-loja.com.br/produto.png"
        value={image}
        onChange={(e) => setImage(e.target.value)}
        required
        hint="A imagem que a página de pagamento mostra."
      />
      <MoneyField
        label="Preço"
        centavos={value}
        onChange={setValue}
        hint="R$ 0,00 (sem preço: o link não vende) ou a partir de R$ 5,00."
      />
      <div className="field">
        <label htmlFor={descriptionId}>Descrição (opcional)</label>
        <textarea
          id={descriptionId}
          rows={3}
          maxLength={5000}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <fieldset>
        <legend>Formas de pagamento</legend>
        <label className="check">
          <input type="checkbox" checked={pix} onChange={(e) => setPix(e.target.checked)} />
          Pix
        </label>
        <label className="check">
          <input type="checkbox" checked={creditCard} onChange={(e) => setCreditCard(e.target.checked)} />
          Cartão de crédito
        </label>
        <label className="check">
          <input type="checkbox" checked={boleto} onChange={(e) => setBoleto(e.target.checked)} />
          Boleto
        </label>
      </fieldset>
      <Select
        label="Parcelas no cartão (até)"
        value={installments}
        options={range(1, 12).map((n) => [n, n === 1 ? 'À vista' : `${n}x`])}
        onChange={setInstallments}
      />
      <fieldset>
        <legend>Carnê (boletos mensais)</legend>
        <label className="check">
          <input type="checkbox" checked={carneEnabled} onChange={(e) => setCarneEnabled(e.target.checked)} />
          Aceita venda em carnê
        </label>
        {carneEnabled ? (
          <div className="stack">
            <Select
              label="Máximo de parcelas do carnê"
              value={maxInstallments}
              options={range(2, 12).map((n) => [n, `${n} boletos`])}
              onChange={setMaxInstallments}
            />
            <p className="hint">
              Juros por número de parcelas: o fator multiplica o preço (1,0349 = 3,49% a mais). Em branco ou
              1,0000: sem juros.
            </p>
            <div className="factors">
              {range(2, maxInstallments).map((n) => (
                <Field
                  key={n}
                  label={`Fator em ${n}x`}
                  inputMode="decimal"
                  placeholder="1,0000"
                  value={factors[String(n)] ?? ''}
                  onChange={(e) => setFactors({ ...factors, [String(n)]: e.target.value })}
                />
              ))}
            </div>
          </div>
        ) : null}
      </fieldset>
      <button type="submit" className="primary" disabled={props.busy}>
        {props.submitLabel}
      </button>
      <ErrorNote error={props.error} fields={PRODUCT_FIELDS} />
    </form>
  );
}

/** A labelled select of numbers. */
export function Select(props: {
  label: string;
  value: number;
  options: [number, string][];
  onChange: (value: number) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(Number(e.target.value))}>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
