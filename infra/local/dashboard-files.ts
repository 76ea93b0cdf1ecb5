import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { PAGE_CSP } from '#shared/http/page-replies';

/** The dashboard's address; every path under it that is not an asset is the app's index.html. */
export const DASHBOARD_PATH = '/dashboard';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

/**
 * What CloudFront and S3 do for the dashboard on AWS, on `npm start`: the files of its build
 * (build/dashboard), index.html for any other path under /dashboard (the app routes in the
 * browser), the pages' strict CSP (the app has nothing inline), assets with hashed names cached for
 * good and index.html never.
 */
export function dashboardFiles(dir: string) {
  return async function serve(pathname: string, res: ServerResponse): Promise<void> {
    const rest = pathname.slice(DASHBOARD_PATH.length);
    const asset = rest.startsWith('/assets/') ? normalize(rest) : null;
    const file = asset?.startsWith('/assets/') ? join(dir, asset) : join(dir, 'index.html');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      const missing = asset ? 'Asset not found' : 'The dashboard is not built: run npm run build';
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(missing);
      return;
    }
    res
      .writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': PAGE_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': asset ? 'public, max-age=31536000, immutable' : 'no-cache',
      })
      .end(body);
  };
}
