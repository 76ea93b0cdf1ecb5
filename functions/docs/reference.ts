import { gzipSync } from 'node:zlib';
import { rawReply } from '#shared/http/types';
import { loadSwaggerUiScript, loadSwaggerUiStyles } from './assets';
import type { REFERENCE_ASSETS } from './routes';

type Asset = (typeof REFERENCE_ASSETS)[number];

/**
 * Swagger UI's bundle and style sheet need nothing inline: its styles come from the sheet, React
 * sets element styles through the CSSOM (which style-src does not govern) and the sheet's icons are
 * data: URIs. The document and "Try it out" requests go to this origin only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payment Service API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/reference.js"></script>
</body>
</html>
`;

// The base layout (no standalone preset): no top bar that would let the page load another URL.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
});
`;

const ASSETS: Record<Asset, { contentType: string; load: () => Promise<string> }> = {
  'swagger-ui-bundle.js': { contentType: 'text/javascript; charset=utf-8', load: loadSwaggerUiScript },
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', load: loadSwaggerUiStyles },
  'reference.js': { contentType: 'text/javascript; charset=utf-8', load: async () => INIT_SCRIPT },
};

interface Encoded {
  text: string;
  gzip?: Buffer;
}

/** Each text read and compressed once per container; the bundle is 1.7 MB, about 0.5 MB gzipped. */
const cache = new Map<string, Promise<Encoded>>();

function cached(key: string, load: () => Promise<string>): Promise<Encoded> {
  let entry = cache.get(key);
  if (!entry) {
    entry = load().then((text) => ({ text }));
    cache.set(key, entry);
  }
  return entry;
}

async function answer(key: string, contentType: string, load: () => Promise<string>, acceptEncoding = '') {
  const entry = await cached(key, load);
  const headers = { ...SECURITY_HEADERS, 'cache-control': 'public, max-age=3600', vary: 'accept-encoding' };
  if (!/\bgzip\b/.test(acceptEncoding)) return rawReply(contentType, entry.text, 200, headers);
  entry.gzip ??= gzipSync(entry.text);
  return rawReply(contentType, entry.gzip, 200, { ...headers, 'content-encoding': 'gzip' });
}

/**
 * The committed docs/openapi.json, not a build from the route tables: the docs bundle then carries
 * one JSON chunk instead of every group's schemas and the generator, and a unit test keeps the
 * file equal to a fresh build.
 */
export const openApiDocument = (acceptEncoding?: string) =>
  answer(
    'openapi.json',
    'application/json',
    async () => JSON.stringify((await import('../../docs/openapi.json', { with: { type: 'json' } })).default),
    acceptEncoding,
  );

export const referencePage = () => rawReply('text/html; charset=utf-8', PAGE, 200, SECURITY_HEADERS);

export const referenceAsset = (file: Asset, acceptEncoding?: string) =>
  answer(file, ASSETS[file].contentType, ASSETS[file].load, acceptEncoding);
