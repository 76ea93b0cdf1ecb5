import type { TransactionStatus } from '#shared/domain/transactions/transaction';

/** The words the exports write (the dashboard shows the same ones). */
export const STATUS_LABELS: Record<TransactionStatus, string> = {
  pendingBoleto: 'Boleto pendente',
  pendingPix: 'Pix pendente',
  authorized: 'Autorizada',
  captured: 'Paga (cartão)',
  payedBoleto: 'Paga (boleto)',
  payedPix: 'Paga (pix)',
  denied: 'Recusada',
  reversed: 'Estornada',
  cancel: 'Cancelada',
};

export const METHOD_LABELS = { pix: 'Pix', boleto: 'Boleto', creditcard: 'Cartão' } as const;

/**
 * A CPF or CNPJ with its mask, a phone with its area code in parentheses: as text a spreadsheet keeps
 * the leading zeros it would drop from a bare number.
 */
export function maskedDocument(digits: string): string {
  if (/^\d{11}$/.test(digits)) return digits.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
  if (/^[\dA-Z]{12}\d{2}$/.test(digits))
    return digits.replace(/^(.{2})(.{3})(.{3})(.{4})(.{2})$/, '$1.$2.$3/$4-$5');
  return digits;
}

export function maskedPhone(digits: string): string {
  if (/^\d{11}$/.test(digits)) return digits.replace(/^(\d{2})(\d{5})(\d{4})$/, '($1) $2-$3');
  if (/^\d{10}$/.test(digits)) return digits.replace(/^(\d{2})(\d{4})(\d{4})$/, '($1) $2-$3');
  return digits;
}
