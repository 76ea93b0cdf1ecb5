import { TIME_ZONE } from '#shared/dates';

/**
 * How mail shows values to a Brazilian buyer. Amounts are formatted from integer centavos by hand
 * rather than with Intl's BRL currency style, which puts a no-break space after `R$` (a text part
 * searched for `R$ 49,90` would not find it) and differs between ICU versions.
 */
export function formatBrl(centavos: number): string {
  if (!Number.isSafeInteger(centavos)) throw new Error(`centavos must be an integer, got ${centavos}`);
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  const reais = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}R$ ${reais},${String(abs % 100).padStart(2, '0')}`;
}

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** `22/11/2026 às 14:05 (horário de Brasília)`: the instant as Sao Paulo wall time. */
export function formatSaoPauloDateTime(instant: Date): string {
  const p = Object.fromEntries(wallClock.formatToParts(instant).map((x) => [x.type, x.value]));
  return `${p.day}/${p.month}/${p.year} às ${p.hour}:${p.minute} (horário de Brasília)`;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML text or attribute content: every seller- or buyer-supplied value goes through it. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * A value fit for a Subject line: control characters (a line break would start a header) become
 * spaces, runs of spaces collapse, and the whole is cut at `max` characters.
 */
export function headerText(text: string, max = 150): string {
  const visible = Array.from(text, (c) => (c.charCodeAt(0) < 32 || c === '\u007f' ? ' ' : c)).join('');
  const flat = visible.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
