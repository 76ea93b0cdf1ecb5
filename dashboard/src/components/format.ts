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
