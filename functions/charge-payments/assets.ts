import { readFile } from 'node:fs/promises';
import type { CHARGE_ASSETS } from '#shared/domain/pages/asset-names';

/**
 * The pay link page's script. As the pages group's assets (functions/pages/assets.ts): esbuild
 * inlines the file through the `type: 'text'` import attribute in the Lambda bundle; the local
 * runtime runs this file from source and reads it from disk.
 */
const fromSource = import.meta.url.endsWith('.ts');

export const CHARGE_ASSET_FILES: Record<
  (typeof CHARGE_ASSETS)[number],
  { contentType: string; load: () => Promise<string> }
> = {
  'charge.js': {
    contentType: 'text/javascript; charset=utf-8',
    load: async () =>
      fromSource
        ? readFile(new URL('./assets/charge.js', import.meta.url), 'utf8')
        : ((await import('./assets/charge.js', { with: { type: 'text' } })) as unknown as { default: string })
            .default,
  },
};
