import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * The renderer's files (swagger-ui-dist, pinned in package.json). In the Lambda bundle esbuild
 * inlines each one into a lazy chunk through the `type: 'text'` import attribute, so the function
 * ships them without node_modules and loads them only when the page asks. Node itself cannot
 * import text yet, so the local runtime (running this file from source) reads them from
 * node_modules instead; the `import()` below is never evaluated there.
 */
const fromSource = import.meta.url.endsWith('.ts');
const resolver = createRequire(import.meta.url);

const vendored =
  (specifier: string, bundled: () => Promise<{ default: string }>) => async (): Promise<string> =>
    fromSource ? readFile(resolver.resolve(specifier), 'utf8') : (await bundled()).default;

export const loadSwaggerUiScript = vendored(
  'swagger-ui-dist/swagger-ui-bundle.js',
  () => import('swagger-ui-dist/swagger-ui-bundle.js', { with: { type: 'text' } }),
);

export const loadSwaggerUiStyles = vendored(
  'swagger-ui-dist/swagger-ui.css',
  () => import('swagger-ui-dist/swagger-ui.css', { with: { type: 'text' } }),
);
