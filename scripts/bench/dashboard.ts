import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { buildDashboard } from '../../esbuild.config.mjs';
import { startRuntime } from '../../infra/local/runtime';
import { launchChromium } from '../../test/support/browser';
import { measureHomeSummary, printHomeSummary } from './home-summary';

/**
 * `npm run bench:dashboard`: the dashboard's budgets (DESIGN.md section 7) on this machine.
 * - initial JavaScript: the script index.html loads, gzipped (budget 150 KB);
 * - shell interactive: from navigation to the app's first form taking input, in Chromium, on the
 *   local runtime (budget under 1 s; best of 5 cold page loads);
 * - API requests each signed-in view makes to load (budget 2). The session is the local demo
 *   seller's dashboard token, handed to the page as the refresh route's answer.
 */
const VIEWS: Record<string, string> = {
  Início: '',
  'Chaves de API': '/desenvolvedores/chaves',
  Webhooks: '/desenvolvedores/webhooks',
  'Endpoint e entregas': '/desenvolvedores/webhooks/{endpoint}',
  Eventos: '/desenvolvedores/eventos',
  'Evento e entregas': '/desenvolvedores/eventos/{event}',
  'Conectar Asaas': '/asaas',
  Conta: '/conta',
};

const dir = mkdtempSync(join(tmpdir(), 'dashboard-bench-'));
const built = await buildDashboard(dir);
const script = readFileSync(built.script);
const gzipKb = gzipSync(script, { level: 9 }).length / 1024;

const runtime = await startRuntime({ port: 0, dataDir: null, logLevel: 'error', dashboardDir: dir });
const browser = await launchChromium();
try {
  const base = `${runtime.baseUrl}/dashboard`;
  const shellMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(`${base}/entrar`);
    await page.getByLabel('E-mail').waitFor({ state: 'visible' });
    shellMs.push(performance.now() - start);
    await context.close();
  }

  const token = runtime.devCredentials?.dashboardToken as string;
  const endpoint = await fetch(`${runtime.baseUrl}/api/webhook-endpoints`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${runtime.devCredentials?.apiKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ url: 'https://example.com/hook', events: ['*'] }),
  }).then((r) => r.json() as Promise<{ id: string }>);
  // A test event, so the event view has one (and the endpoint a delivery of it).
  const event = await fetch(`${runtime.baseUrl}/api/test-helpers/events`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${runtime.devCredentials?.apiKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ event: 'product.updated' }),
  }).then((r) => r.json() as Promise<{ id: string }>);
  const context = await browser.newContext();
  await context.route('**/api/auth/refresh', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ idToken: token, expiresIn: 3600 }),
    }),
  );
  const page = await context.newPage();
  const requests: Record<string, number> = {};
  for (const [name, path] of Object.entries(VIEWS)) {
    requests[name] = await requestsToLoad(
      page,
      `${base}${path.replace('{endpoint}', endpoint.id).replace('{event}', event.id)}`,
    );
  }

  const best = Math.min(...shellMs);
  console.log('dashboard budgets');
  console.log(
    `  initial JS        ${gzipKb.toFixed(1)} KB gzipped (${(script.length / 1024).toFixed(1)} KB minified), budget 150 KB: ${gzipKb <= 150 ? 'ok' : 'OVER'}`,
  );
  console.log(
    `  shell interactive ${best.toFixed(0)} ms best of 5 (${shellMs.map((m) => m.toFixed(0)).join(', ')}), budget < 1000 ms: ${best < 1000 ? 'ok' : 'OVER'}`,
  );
  console.log('  API requests to load each view (budget 2):');
  for (const [name, count] of Object.entries(requests))
    console.log(`    ${name.padEnd(22)} ${count}${count > 2 ? '  OVER' : ''}`);
  // The home's reads at a big seller (DESIGN.md section 3: O(days), never O(transactions)).
  printHomeSummary(await measureHomeSummary(runtime, 100_000));
} finally {
  await browser.close();
  await runtime.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** A fresh load of the view: its /api/ requests but the session's refresh, until the network is idle. */
async function requestsToLoad(page: Page, url: string): Promise<number> {
  const seen: string[] = [];
  const listener = (request: { url(): string }) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/') && path !== '/api/auth/refresh') seen.push(path);
  };
  page.on('request', listener);
  await page.goto(url, { waitUntil: 'networkidle' });
  page.off('request', listener);
  return seen.length;
}
