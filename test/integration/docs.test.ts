import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '#functions/docs/reference';
import type { Runtime } from '../../infra/local/runtime';
import { OPENAPI_FILE } from '../../scripts/openapi';
import { launchChromium } from '../support/browser';
import { client, startTestRuntime } from '../support/runtime';

let runtime: Runtime;
let api: ReturnType<typeof client>;
let browser: Browser | undefined;

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = client(runtime.baseUrl);
});
afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

describe('GET /api/openapi.json', () => {
  it('answers the generated OpenAPI document, no credentials needed', async () => {
    const res = await api.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')));
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('sends it gzipped to a client that accepts gzip', async () => {
    const res = await fetch(`${runtime.baseUrl}/api/openapi.json`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });
});

describe('GET /docs', () => {
  it('answers the HTML page with a strict CSP that allows only this origin', async () => {
    const res = await api.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = res.headers.get('content-security-policy');
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-|https?:|\*/);
    // Every script and style sheet comes from our own asset route; nothing inline.
    const sources = [...String(res.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual([
      'data:,',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/reference.js',
    ]);
    expect(String(res.body)).not.toMatch(/<script>|<style|style=/);
  });

  it.each([
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['reference.js', 'text/javascript; charset=utf-8'],
  ])('serves the asset %s as %s with nosniff', async (file, type) => {
    const res = await api.get(`/docs/assets/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(String(res.body).length).toBeGreaterThan(50);
  });

  it('answers 404 for a file the page does not use', async () => {
    const res = await api.get('/docs/assets/package.json');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, message: 'Asset not found' });
  });

  // Chromium is a prerequisite of `npm test` (scripts/check-prerequisites.mjs); .ci/run installs it.
  it('renders the reference in Chromium with no CSP violation, console error or foreign request', async () => {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 1800 } });
    const problems: string[] = [];
    const requested: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => requested.push(request.url()));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    // Violations are reported to the page, not to the console: surface them as console errors.
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (e) =>
          console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));`,
    });

    const response = await page.goto(`${runtime.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    // Past 150 tags and operations Swagger UI renders the list virtualized (only what is in view), so
    // the check is an operation of the first tag, not one further down.
    await page.getByText('Overall health').first().waitFor({ timeout: 20_000 });
    await page.getByText('Payment Service API').first().waitFor();
    await page.screenshot({ path: '/tmp/docs.png', fullPage: false });

    expect(problems).toEqual([]);
    const origin = new URL(runtime.baseUrl).origin;
    expect(requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
  });
});
