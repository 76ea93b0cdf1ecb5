const dateTime = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  dateStyle: 'short',
  timeStyle: 'short',
});

/** An instant as a seller in Brazil reads it (America/Sao_Paulo), or a dash for none. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

/** The environment as the switch names it. */
export const ENVIRONMENT_LABEL = { test: 'Teste', live: 'Produção' } as const;

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** An amount in Reais as the API gives it (49.9) as "R$ 49,90". */
export function formatBrl(reais: number | null | undefined): string {
  return reais === null || reais === undefined ? '—' : brl.format(reais);
}

/** A calendar day (YYYY-MM-DD, already a São Paulo day) as DD/MM/AAAA, with no time-zone shift. */
export function formatDay(day: string | null | undefined, short = false): string {
  if (!day) return '—';
  const [y, m, d] = day.slice(0, 10).split('-');
  return short ? `${d}/${m}` : `${d}/${m}/${y}`;
}

/** Today in America/Sao_Paulo as YYYY-MM-DD (the API's date-only fields). */
export function todayInSaoPaulo(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(now);
}

/** Centavos (what the money field keeps) to the API's Reais: an integer over 100 prints with at most 2 decimals. */
export const centavosToReais = (centavos: number): number => centavos / 100;

/** The API's Reais to centavos, for a field that edits an amount it read. */
export const reaisToCentavos = (value: number): number => Math.round(value * 100);

const day = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short' });

/** The calendar day of an instant in Sao Paulo (DD/MM/AAAA), or a dash for none. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? day.format(new Date(iso)) : '—';
}

/** A phone (10 or 11 digits) as (11) 98765-4321. */
export function formatPhone(digits: string): string {
  if (/^\d{11}$/.test(digits)) return digits.replace(/^(\d{2})(\d{5})(\d{4})$/, '($1) $2-$3');
  if (/^\d{10}$/.test(digits)) return digits.replace(/^(\d{2})(\d{4})(\d{4})$/, '($1) $2-$3');
  return digits;
}

/** A calendar day `days` after `date` (YYYY-MM-DD), negative for before. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
