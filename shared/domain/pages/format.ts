import {
  centavosToReais,
  formatBrl as formatBrlCentavos,
  reaisToCentavos,
  splitCentavos,
} from '#shared/money';

/** Reais of a view as a buyer reads them: `R$ 49,90`, with a no-break space (shared/money's formatter). */
export const formatBrl = (reais: number): string => formatBrlCentavos(reaisToCentavos(reais) ?? 0, '\u00a0');

export interface InstallmentOption {
  count: number;
  label: string;
}

/**
 * `1x de R$ 49,90 (à vista)` … `3x de R$ 16,64 (total R$ 49,90)`. No interest: the buyer pays the
 * price. When it does not divide evenly the first installment carries the leftover centavos
 * (`splitCentavos`), and that largest installment is the one shown.
 */
export function installmentOptions(value: number, maxInstallments: number): InstallmentOption[] {
  const total = reaisToCentavos(value) ?? 0;
  const max = Math.max(1, Math.min(12, Math.trunc(maxInstallments)));
  return Array.from({ length: max }, (_, i) => {
    const count = i + 1;
    const first = centavosToReais(splitCentavos(total, count)[0]);
    const label =
      count === 1
        ? `1x de ${formatBrl(first)} (à vista)`
        : `${count}x de ${formatBrl(first)} (total ${formatBrl(value)})`;
    return { count, label };
  });
}
