import { saoPauloDate } from '#shared/dates';
import type { CardBrand } from '#shared/domain/payments/cards';
import type { BillingInterval } from '#shared/domain/subscriptions/price';
import { formatBrl } from './format';

/** `dd/mm/aaaa` of an instant's Sao Paulo calendar day (a renewal at 00:30 UTC is the previous day there). */
export function formatSaoPauloDay(iso: string): string {
  const [year, month, day] = saoPauloDate(new Date(iso)).split('-');
  return `${day}/${month}/${year}`;
}

const INTERVALS: Record<BillingInterval, { one: string; many: string }> = {
  week: { one: 'semana', many: 'semanas' },
  month: { one: 'mês', many: 'meses' },
  year: { one: 'ano', many: 'anos' },
};

/** `por mês`, `a cada 3 meses`, `a cada 2 semanas`. */
export function intervalText(interval: BillingInterval, count: number): string {
  const words = INTERVALS[interval];
  return count === 1 ? `por ${words.one}` : `a cada ${count} ${words.many}`;
}

/** `R$ 49,90 por mês` (no-break space after R$). */
export const recurringPrice = (unitAmount: number, interval: BillingInterval, count: number): string =>
  `${formatBrl(unitAmount)} ${intervalText(interval, count)}`;

/** What a subscriber reads of a subscription's state (a paused or trialing one is still `active`). */
export interface StatusLabel {
  /** A CSS modifier: the chip's colour. */
  tone: 'ok' | 'info' | 'warn' | 'bad' | 'muted';
  text: string;
}

export interface StatusFacts {
  status: string;
  trialEndsAt: string | null;
  pauseCollection: { pausedAt: string } | null;
  failedPaymentCount: number;
}

export function statusLabel(s: StatusFacts, now: Date): StatusLabel {
  switch (s.status) {
    case 'active':
      if (s.pauseCollection) return { tone: 'muted', text: 'Pausada' };
      if (s.failedPaymentCount > 0) return { tone: 'warn', text: 'Pagamento pendente' };
      if (s.trialEndsAt && Date.parse(s.trialEndsAt) > now.getTime())
        return { tone: 'info', text: 'Período de teste' };
      return { tone: 'ok', text: 'Ativa' };
    case 'pending':
      return { tone: 'info', text: 'Aguardando pagamento' };
    case 'pending_cancellation':
      return { tone: 'warn', text: 'Cancelamento agendado' };
    case 'canceled':
      return { tone: 'muted', text: 'Cancelada' };
    case 'failed':
      return { tone: 'bad', text: 'Pagamento recusado' };
    default:
      return { tone: 'muted', text: s.status };
  }
}

const BRANDS: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  elo: 'Elo',
  unknown: 'Cartão',
};

/** `Visa ····1234`; a brand we do not know is shown as the provider wrote it (escaped by the template). */
export function cardText(brand: string, last4: string): string {
  const name = BRANDS[brand.toLowerCase() as CardBrand] ?? (brand || 'Cartão');
  return `${name} ····${last4}`;
}
