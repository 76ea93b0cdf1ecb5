/** The billing settings' paths and the régua's words, shared by the views that link or name them. */

export const REMINDERS_PATH = '/configuracoes/regua-de-cobranca';
export const LATE_CHARGES_PATH = '/configuracoes/multa-e-juros';

/** "3 dias antes do vencimento", "No dia do vencimento", "1 dia depois do vencimento". */
export function stepWhen(offsetDays: number): string {
  if (offsetDays === 0) return 'No dia do vencimento';
  const days = Math.abs(offsetDays);
  return `${days} ${days === 1 ? 'dia' : 'dias'} ${offsetDays < 0 ? 'antes' : 'depois'} do vencimento`;
}
