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

export const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payment Service API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/docs/assets/reference.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/reference.js"></script>
</body>
</html>
`;

// Swagger UI's own OperationSummaryPath (5.x) with each segment in a span, so that a path breaks
// only at the <wbr> before a slash and never after a hyphen inside a segment (`cancel-` /
// `at-period-end`); reference.css keeps a segment on one line.
const SEGMENTED_PATHS = `function segmentedPaths(system) {
  var h = system.React.createElement;
  return {
    components: {
      OperationSummaryPath: function (props) {
        var o = props.operationProps.toObject();
        var text = o.path.split(/(?=\\/)/g).reduce(function (parts, segment, i) {
          if (i > 0) parts.push(h('wbr', { key: 'w' + i }));
          parts.push(h('span', { key: 's' + i, className: 'path-segment' }, segment));
          return parts;
        }, []);
        return h(
          'span',
          { className: o.deprecated ? 'opblock-summary-path__deprecated' : 'opblock-summary-path', 'data-path': o.path },
          h(props.getComponent('DeepLink'), {
            enabled: o.isDeepLinkingEnabled,
            isShown: o.isShown,
            path: (o.tag + '/' + o.operationId).trim().replace(/\\s/g, '%20'),
            text: text,
          }),
        );
      },
    },
  };
}
`;

// The base layout (no standalone preset): no top bar that would let the page load another URL.
const INIT_SCRIPT = `${SEGMENTED_PATHS}
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
  plugins: [segmentedPaths],
});
`;

/**
 * Swagger UI squeezes an operation's path, summary and operationId into one row, which on a phone
 * breaks `markInstallmentPaid` letter by letter. Below 600 px each gets its own row: the method
 * with the summary (which wraps between words), then the path (which breaks before a slash), then
 * the operationId, whose longest fits; the lock and the arrow move to the top corner, so that the
 * path and the operationId have the block's whole width. Code (the getting-started commands, the
 * examples) keeps its lines and scrolls sideways inside its block, and the answers' table drops its
 * empty Links column, so that an open operation fits the phone's width.
 */
const STYLES = `.swagger-ui .opblock-summary-path .path-segment { white-space: nowrap; }
.swagger-ui .info pre, .swagger-ui .info pre > code { white-space: pre; overflow-x: auto; }
@media (max-width: 600px) {
  .swagger-ui .opblock .opblock-summary { position: relative; }
  .swagger-ui .opblock .opblock-summary .authorization__btn { position: absolute; top: 8px; right: 42px; }
  .swagger-ui .opblock .opblock-summary .opblock-control-arrow { position: absolute; top: 6px; right: 5px; }
  .swagger-ui .opblock .opblock-summary-control { flex-wrap: wrap; align-items: center; row-gap: 4px; }
  .swagger-ui .opblock .opblock-summary-path-description-wrapper { display: contents; }
  .swagger-ui .opblock .opblock-summary-method { min-width: 64px; }
  .swagger-ui .opblock .opblock-summary-description { flex: 1 1 0; min-width: 0; padding: 0 72px 0 10px; }
  .swagger-ui .opblock .opblock-summary-path { flex: 1 0 100%; order: 2; padding: 0 4px; }
  .swagger-ui .opblock .opblock-summary-operation-id { flex: 1 0 100%; order: 3; padding: 0 4px; font-size: 12px; }
  .swagger-ui .opblock .opblock-summary-path,
  .swagger-ui .opblock .opblock-summary-description,
  .swagger-ui .opblock .opblock-summary-operation-id { box-sizing: border-box; word-break: normal; overflow-wrap: anywhere; }
  .swagger-ui .responses-table { table-layout: fixed; width: 100%; }
  .swagger-ui .responses-table .response-col_status { width: 44px; }
  .swagger-ui .responses-table .response-col_links { display: none; }
  .swagger-ui .opblock-body pre.microlight { white-space: pre; word-break: normal; overflow-x: auto; }
  .swagger-ui .highlight-code > .microlight code { white-space: pre !important; word-break: normal; }
}
`;

const ASSETS: Record<Asset, { contentType: string; load: () => Promise<string> }> = {
  'swagger-ui-bundle.js': { contentType: 'text/javascript; charset=utf-8', load: loadSwaggerUiScript },
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', load: loadSwaggerUiStyles },
  'reference.js': { contentType: 'text/javascript; charset=utf-8', load: async () => INIT_SCRIPT },
  'reference.css': { contentType: 'text/css; charset=utf-8', load: async () => STYLES },
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

export const referencePage = () =>
  rawReply('text/html; charset=utf-8', REFERENCE_PAGE, 200, SECURITY_HEADERS);

export const referenceAsset = (file: Asset, acceptEncoding?: string) =>
  answer(file, ASSETS[file].contentType, ASSETS[file].load, acceptEncoding);
