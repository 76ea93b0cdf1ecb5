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

/** An amount in Reais (as the API answers it) as `R$ 1.234,56`; a dash for none. */
export function formatReais(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : brl.format(value);
}

/** A calendar day (YYYY-MM-DD) as DD/MM/AAAA. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '—';
  const [y, m, d] = day.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

/**
 * The R$ mask of a money input: the digits typed are centavos, shown as `R$ 12,34` while typing.
 * `centavos` is null when nothing was typed.
 */
export function maskReais(typed: string): { shown: string; centavos: number | null } {
  const digits = typed.replace(/\D/g, '').replace(/^0+/, '').slice(0, 11);
  if (digits === '') return { shown: '', centavos: null };
  const centavos = Number(digits);
  return { shown: brl.format(centavos / 100), centavos };
}

/** A phone (10 or 11 digits) as (11) 98765-4321. */
export function formatPhone(digits: string): string {
  if (/^\d{11}$/.test(digits)) return digits.replace(/^(\d{2})(\d{5})(\d{4})$/, '($1) $2-$3');
  if (/^\d{10}$/.test(digits)) return digits.replace(/^(\d{2})(\d{4})(\d{4})$/, '($1) $2-$3');
  return digits;
}
