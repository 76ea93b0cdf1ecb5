import { readFile } from 'node:fs/promises';
import type { MINHA_AREA_ASSETS, PAGE_ASSETS, PORTAL_ASSETS } from '#shared/domain/pages/asset-names';

type Asset =
  | (typeof PAGE_ASSETS)[number]
  | (typeof PORTAL_ASSETS)[number]
  | (typeof MINHA_AREA_ASSETS)[number];

/**
 * The page's script and style sheet. In the Lambda bundle esbuild inlines each file through the
 * `type: 'text'` import attribute; the local runtime runs this file from source, where Node cannot
 * import text, so it reads them from disk instead (the `import()` is never evaluated there).
 */
const fromSource = import.meta.url.endsWith('.ts');

const text = (file: string, bundled: () => Promise<unknown>) => async (): Promise<string> =>
  fromSource
    ? readFile(new URL(`./assets/${file}`, import.meta.url), 'utf8')
    : ((await bundled()) as { default: string }).default;

export const ASSET_FILES: Record<Asset, { contentType: string; load: () => Promise<string> }> = {
  'checkout.js': {
    contentType: 'text/javascript; charset=utf-8',
    load: text('checkout.js', () => import('./assets/checkout.js', { with: { type: 'text' } })),
  },
  'checkout.css': {
    contentType: 'text/css; charset=utf-8',
    load: text('checkout.css', () => import('./assets/checkout.css', { with: { type: 'text' } })),
  },
  'portal.js': {
    contentType: 'text/javascript; charset=utf-8',
    load: text('portal.js', () => import('./assets/portal.js', { with: { type: 'text' } })),
  },
  'portal.css': {
    contentType: 'text/css; charset=utf-8',
    load: text('portal.css', () => import('./assets/portal.css', { with: { type: 'text' } })),
  },
  'minha-area.js': {
    contentType: 'text/javascript; charset=utf-8',
    load: text('minha-area.js', () => import('./assets/minha-area.js', { with: { type: 'text' } })),
  },
  'minha-area.css': {
    contentType: 'text/css; charset=utf-8',
    load: text('minha-area.css', () => import('./assets/minha-area.css', { with: { type: 'text' } })),
  },
};
