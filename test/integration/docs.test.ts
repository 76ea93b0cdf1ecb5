import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '#functions/docs/reference';
import type { Runtime } from '#infra/local/runtime';
import { OPENAPI_FILE } from '../../scripts/openapi';
import { launchChromium, noHorizontalScroll, PHONE, screenshots } from '../support/browser';
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
      '/docs/assets/reference.css',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/reference.js',
    ]);
    expect(String(res.body)).not.toMatch(/<script>|<style|style=/);
  });

  it.each([
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['reference.js', 'text/javascript; charset=utf-8'],
    ['reference.css', 'text/css; charset=utf-8'],
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

  // npm's Chromium (test/support/chromium.ts), or the one CHROMIUM names.
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

  it('shows the hand-picked examples: the README buyer and the test cards, never generated placeholders', async () => {
    browser ??= await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 1800 } });
    await page.goto(`${runtime.baseUrl}/docs#/transactions/createTransaction`);
    const operation = page.locator('#operations-transactions-createTransaction');
    const requestExample = operation.locator('.opblock-section-request-body .highlight-code').first();
    await requestExample.waitFor({ timeout: 20_000 });
    const choices = operation.locator('.opblock-section-request-body select.examples-select-element');
    expect(await choices.locator('option:checked').textContent()).toBe('Pix: the BR Code to show the buyer');
    expect(await requestExample.textContent()).toContain('"document": "529.982.247-25"');
    // The request body's examples are a choice (in Try it out): the card one carries the test card.
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await choices.selectOption({
      label: 'Card 4111 1111 1111 1111 in 3 installments, approved; the card is saved',
    });
    expect(await operation.locator('.opblock-section-request-body textarea').inputValue()).toContain(
      '"number": "4111111111111111"',
    );
    const shown = await operation.textContent();
    expect(shown).toContain('Maria Souza');
    expect(shown).not.toMatch(/additionalProp|"string"|1357944564547/);
    // The getting-started guide heads the page, with the sandbox's test cards.
    await page.getByRole('heading', { name: 'Getting started' }).waitFor();
    await page.getByText('4000 0000 0000 0002', { exact: true }).waitFor();
    await page.close();
  });

  it('wraps long operation names on a phone: the operationId on one line, the path only before a slash', async () => {
    browser ??= await launchChromium();
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(`${runtime.baseUrl}/docs`);
    await page.getByText('Overall health').first().waitFor({ timeout: 20_000 });
    await noHorizontalScroll(page);
    // Every operationId and every path segment is one line box; each fits inside its operation.
    // Swagger UI renders a list this long virtualized (only what is in view), so the page is walked
    // one screen at a time and each operation is checked when it is drawn.
    const { bad: broken, seen } = await page.evaluate<{ bad: string[]; seen: number }>(`(async () => {
      const lines = (node) => { const range = document.createRange(); range.selectNodeContents(node); return range.getClientRects().length; };
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const bad = new Set();
      const seen = new Set();
      for (let y = 0; y <= document.documentElement.scrollHeight; y += Math.floor(innerHeight / 2)) {
        scrollTo(0, y);
        await frame();
        for (const op of document.querySelectorAll('.opblock')) {
          if (seen.has(op.id)) continue;
          seen.add(op.id);
          const block = op.getBoundingClientRect();
          const id = op.querySelector('.opblock-summary-operation-id');
          if (!id || lines(id) !== 1) bad.add('operationId ' + (id && id.textContent));
          else {
            const text = document.createRange();
            text.selectNodeContents(id);
            if (text.getBoundingClientRect().right > block.right) bad.add('wider than its block: ' + id.textContent);
          }
          const segments = op.querySelectorAll('.opblock-summary-path .path-segment');
          if (segments.length === 0) bad.add('no path segments in ' + op.id);
          for (const segment of segments) if (lines(segment) !== 1) bad.add('path segment ' + segment.textContent);
        }
      }
      scrollTo(0, 0);
      return { bad: [...bad], seen: seen.size };
    })()`);
    expect(broken).toEqual([]);
    expect(seen).toBeGreaterThan(100);
    await screenshots('docs-')(page, 'phone');
    await page.close();
    // An open operation, with its examples and answers, fits the width too.
    const open = await browser.newPage({ viewport: PHONE });
    await open.goto(`${runtime.baseUrl}/docs#/transactions/createTransaction`);
    // The deep link opens the operation; a list this long is drawn as it comes into view, so the
    // page is walked down until the operation is drawn.
    await open.locator('.opblock').first().waitFor({ state: 'attached', timeout: 30_000 });
    const drawn = await open.evaluate<boolean>(`(async () => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      for (let y = 0; y <= document.documentElement.scrollHeight; y += Math.floor(innerHeight / 2)) {
        if (document.getElementById('operations-transactions-createTransaction')) return true;
        scrollTo(0, y);
        await frame();
      }
      return Boolean(document.getElementById('operations-transactions-createTransaction'));
    })()`);
    expect(drawn).toBe(true);
    const deep = open.locator('#operations-transactions-createTransaction');
    await deep.scrollIntoViewIfNeeded();
    if ((await deep.locator('.responses-table').count()) === 0)
      await deep.locator('.opblock-summary').first().click();
    await deep.locator('.responses-table').first().waitFor({ timeout: 30_000 });
    await noHorizontalScroll(open);
    await screenshots('docs-')(open, 'phone-operation');
    await open.close();
  });
});

describe('the error examples of the API reference', () => {
  type Json = Record<string, any>;
  const documented = (path: string, method: string, status: number): Json => {
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    return document.paths[path][method].responses[status].content['application/json'].example;
  };
  const same = (answer: Json, example: Json) => {
    const { timestamp: _answered, ...rest } = answer;
    const { timestamp: _shown, ...shown } = example;
    expect(rest).toEqual(shown);
  };

  it('are what the service answers: a sale without a body, a read without a key, a missing product', async () => {
    const empty = await api.post('/api/transactions', {});
    expect(empty.status).toBe(400);
    same(empty.body, documented('/api/transactions', 'post', 400));

    const example = documented('/api/products/{id}', 'get', 401);
    const anonymous = await api.get(example.path);
    expect(anonymous.status).toBe(401);
    same(anonymous.body, example);

    const jwt = await runtime.issuer.sign(9001, { now: runtime.clock.now() });
    const key = (await api.post('/api/api-keys', { name: 'docs', environment: 'test' }, { token: jwt })).body
      .key;
    const missing = documented('/api/products/{id}', 'get', 404);
    const read = await api.get(missing.path, { token: key });
    expect(read.status).toBe(404);
    same(read.body, missing);

    const environment = documented('/api/products/{id}', 'get', 400);
    const staging = await api.get(environment.path, { token: jwt, headers: { 'x-environment': 'staging' } });
    expect(staging.status).toBe(400);
    same(staging.body, environment);
  });

  it('are what the service answers: a test helper with a live key, a reused idempotency key', async () => {
    const jwt = await runtime.issuer.sign(9002, { now: runtime.clock.now() });
    const live = (await api.post('/api/api-keys', { name: 'live', environment: 'live' }, { token: jwt })).body
      .key;
    const forbidden = documented('/api/test-helpers/transactions/{id}/pay', 'post', 403);
    const helper = await api.post(forbidden.path, undefined, { token: live });
    expect(helper.status).toBe(403);
    same(helper.body, forbidden);

    const test = (await api.post('/api/api-keys', { name: 'test', environment: 'test' }, { token: jwt })).body
      .key;
    const headers = { 'x-idempotency-key': 'docs-example-1' };
    const first = await api.post(
      '/api/webhook-endpoints',
      { url: 'http://127.0.0.1:4000/a', events: ['*'] },
      { token: test, headers },
    );
    expect(first.status).toBe(201);
    const reused = await api.post(
      '/api/webhook-endpoints',
      { url: 'http://127.0.0.1:4000/b', events: ['*'] },
      { token: test, headers },
    );
    expect(reused.status).toBe(422);
    same(reused.body, documented('/api/webhook-endpoints', 'post', 422));
  });
});
