import type { Schemas } from '../../api/client';

type Status = Schemas['Transaction']['status'];

/** The statuses as a seller reads them (the CSV export writes the same words). */
export const STATUS_LABELS: Record<Status, string> = {
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

export const METHOD_LABELS: Record<Schemas['Transaction']['paymentMethod'], string> = {
  pix: 'Pix',
  boleto: 'Boleto',
  creditcard: 'Cartão',
};

export const PAID: readonly Status[] = ['captured', 'payedBoleto', 'payedPix'];
export const PENDING: readonly Status[] = ['pendingBoleto', 'pendingPix'];

/** The badge class of a status: paid green, pending amber, the rest red. */
export function statusTone(status: Status): string {
  if (PAID.includes(status)) return 'badge succeeded';
  if (PENDING.includes(status) || status === 'authorized') return 'badge pending';
  return 'badge failed';
}
