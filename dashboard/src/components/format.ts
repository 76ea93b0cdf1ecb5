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

/** An amount in Reais (as the API answers it) as R$ 1.234,56. */
export function formatBrl(reais: number): string {
  return brl.format(reais);
}

const isoDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today in America/Sao_Paulo as YYYY-MM-DD (the API's calendar days). */
export function todayInSaoPaulo(now = new Date()): string {
  return isoDay.format(now);
}

/** A calendar day `days` after `date` (YYYY-MM-DD), negative for before. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** A calendar day (YYYY-MM-DD) as DD/MM/AAAA, or DD/MM with `short`. */
export function formatDay(date: string, short = false): string {
  const [y, m, d] = date.split('-');
  return short ? `${d}/${m}` : `${d}/${m}/${y}`;
}
