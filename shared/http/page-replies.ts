import type { PageAnswer } from '#shared/domain/pages/page';
import { rawReply } from './types';

/**
 * What every hosted page (checkout, portal, pay link) is answered with. Nothing inline and nothing
 * from another origin. img-src adds `data:` (the pix QR code arrives as a data: URL) and `https:`
 * (the product image is the seller's own https URL). form-action 'self' in case a form is ever
 * submitted without the script (its inputs have no names, so it sends nothing). Navigating to the
 * seller's success or cancel URL is not governed by CSP.
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

export const SECURITY_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** A page shows one buyer's data: never kept by a browser or a proxy. */
export const pageReply = (answer: PageAnswer) =>
  rawReply('text/html; charset=utf-8', answer.html, answer.status, {
    ...SECURITY_HEADERS,
    'cache-control': 'no-store',
  });

/** A static file of the pages, read once per container by `load`; cached briefly by browsers (the URLs carry no version). */
export function assetReplier(files: Record<string, { contentType: string; load: () => Promise<string> }>) {
  const loaded = new Map<string, Promise<string>>();
  return async (file: string) => {
    const asset = files[file];
    let text = loaded.get(file);
    if (!text) {
      text = asset.load();
      loaded.set(file, text);
    }
    return rawReply(asset.contentType, await text, 200, {
      ...SECURITY_HEADERS,
      'cache-control': 'public, max-age=300',
    });
  };
}
