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

const reais = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** An amount the API gives in Reais (decimal, e.g. 49.9) as R$ 49,90. */
export function formatReais(value: number): string {
  return reais.format(value);
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
