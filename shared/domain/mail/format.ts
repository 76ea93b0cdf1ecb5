import { TIME_ZONE } from '#shared/dates';
import { once } from '#shared/once';

export { escapeHtml } from '#shared/html';
// Amounts: the one formatter of shared/money (hand-grouped from centavos: a text part searched for
// `R$ 49,90` finds it, whatever the ICU version). HTML escaping: the one of shared/html.
export { formatBrl } from '#shared/money';

// Built on first use: a formatter with a time zone loads ICU's zone data (cold start cost).
const wallClock = once(
  () =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: TIME_ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }),
);

/** `22/11/2026 às 14:05 (horário de Brasília)`: the instant as Sao Paulo wall time. */
export function formatSaoPauloDateTime(instant: Date): string {
  const p = Object.fromEntries(
    wallClock()
      .formatToParts(instant)
      .map((x) => [x.type, x.value]),
  );
  return `${p.day}/${p.month}/${p.year} às ${p.hour}:${p.minute} (horário de Brasília)`;
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
