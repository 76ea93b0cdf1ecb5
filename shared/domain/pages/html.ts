/**
 * HTML built from templates whose every interpolated value is escaped unless it is already HTML
 * built the same way. Seller-controlled text (product name, description, URLs, prefilled buyer
 * data) can then only ever land in a page as text.
 */

import { escapeHtml } from '#shared/html';

export { escapeHtml };

/** A fragment that is already HTML (made by `html`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** `html\`<p>${name}</p>\``: `name` is escaped; nested `html` fragments and arrays of them are not. */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/**
 * A URL a page may link to or load: absolute http(s) only, so a seller's `javascript:` or `data:`
 * URL never becomes a link. null when it is anything else.
 */
export function safeUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
