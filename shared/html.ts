const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * Text for an element's content or a quoted attribute value: the one escaping of every seller- or
 * buyer-supplied value that lands in HTML (hosted pages, e-mail).
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ENTITIES[c]);
}
