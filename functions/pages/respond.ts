import { themeCss } from '#shared/domain/pages/portal-theme';
import { assetReplier, SECURITY_HEADERS } from '#shared/http/page-replies';
import { rawReply } from '#shared/http/types';
import { ASSET_FILES } from './assets';

export { PAGE_CSP, pageReply } from '#shared/http/page-replies';

/** A theme's text is a function of its URL: cached for a year, like a file with a hash in its name. */
export const themeReply = (color: string) =>
  rawReply('text/css; charset=utf-8', themeCss(color), 200, {
    ...SECURITY_HEADERS,
    'cache-control': 'public, max-age=31536000, immutable',
  });

/** Each file read once per container; cached briefly by browsers (the URLs carry no version). */
export const assetReply = assetReplier(ASSET_FILES);
