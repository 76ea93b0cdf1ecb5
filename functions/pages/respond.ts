import type { PageAnswer } from '#shared/domain/pages/page';
import { themeCss } from '#shared/domain/pages/portal-theme';
import { rawReply } from '#shared/http/types';
import { ASSET_FILES } from './assets';

/**
 * Nothing inline and nothing from another origin. img-src adds `data:` (the pix QR code arrives as
 * a data: URL) and `https:` (the product image is the seller's own https URL). form-action 'self'
 * in case the form is ever submitted without the script (its inputs have no names, so it sends
 * nothing). Navigating to the seller's success or cancel URL is not governed by CSP.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** A page shows one buyer's session and prefilled data: never kept by a browser or a proxy. */
export const pageReply = (answer: PageAnswer) =>
  rawReply('text/html; charset=utf-8', answer.html, answer.status, {
    ...SECURITY_HEADERS,
    'cache-control': 'no-store',
  });

/** A theme's text is a function of its URL: cached for a year, like a file with a hash in its name. */
export const themeReply = (color: string) =>
  rawReply('text/css; charset=utf-8', themeCss(color), 200, {
    ...SECURITY_HEADERS,
    'cache-control': 'public, max-age=31536000, immutable',
  });

const loaded = new Map<string, Promise<string>>();

/** Each file read once per container; cached briefly by browsers (the URLs carry no version). */
export async function assetReply(file: keyof typeof ASSET_FILES) {
  const asset = ASSET_FILES[file];
  let text = loaded.get(file);
  if (!text) {
    text = asset.load();
    loaded.set(file, text);
  }
  return rawReply(asset.contentType, await text, 200, {
    ...SECURITY_HEADERS,
    'cache-control': 'public, max-age=300',
  });
}
