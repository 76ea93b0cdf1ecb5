import { type InputHTMLAttributes, useId } from 'react';
import { formatBrl } from './format';

type MoneyFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  label: string;
  /** The amount in centavos (integers: no float touches money while typing). */
  centavos: number;
  onChange(centavos: number): void;
  hint?: string;
};

/** The most a field takes: R$ 9.999.999,99 (the digits shift in from the right, as in a banking app). */
const MAX_DIGITS = 9;

/**
 * An amount in R$ typed as digits that fill from the centavos up ("4990" reads R$ 49,90): the mask
 * sellers know from banking apps, with no decimal separator to get wrong. Zero shows the placeholder,
 * so the first digit typed never lands before the mask's text.
 */
export function MoneyField({ label, centavos, onChange, hint, ...input }: MoneyFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        aria-describedby={hint ? `${id}-hint` : undefined}
        placeholder="R$ 0,00"
        value={centavos === 0 ? '' : formatBrl(centavos / 100)}
        onChange={(e) => {
          const digits = e.target.value.replace(/\D/g, '').replace(/^0+/, '').slice(-MAX_DIGITS);
          onChange(digits ? Number(digits) : 0);
        }}
        {...input}
      />
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}
