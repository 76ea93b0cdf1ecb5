import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Runtime, RuntimeOptions } from '#infra/local/runtime';
import { launchChromium, noHorizontalScroll, PHONE, screenshots, type Watched, watchPage } from './browser';
import { client, startTestRuntime } from './runtime';

/** The dashboard's desktop size; PHONE is the other size every view is checked at. */
export const DESKTOP = { width: 1280, height: 900 };
export const SELLER_PASSWORD = 'Senha-forte-123';

/** A signed-up, confirmed seller: its login token and a sandbox API key for seeding data. */
export interface DashboardSeller {
  email: string;
  idToken: string;
  /** An `sk_test_` key of the seller, to seed data through the API. */
  testKey: string;
}

/**
 * The dashboard open in Chromium for one seller signed in through the login page (sign-up and
 * confirmation go through the API: dashboard-auth and dashboard test those pages). Each part-2 test
 * file starts one in beforeAll and closes it in afterAll.
 */
export interface Dashboard {
  runtime: Runtime;
  api: ReturnType<typeof client>;
  browser: Browser;
  watched: Watched;
  page: Page;
  seller: DashboardSeller;
  /** axe-core (no serious or critical violation) and no sideways scroll at 390 px and 1280 px, with screenshots. */
  checkView(name: string): Promise<void>;
  /** Follows the main menu's link `label` and waits for the view's h1 (`heading`, or the label). */
  goTo(label: string, heading?: string | RegExp): Promise<void>;
  /** Signs up another seller through the API (for isolation tests). */
  newSeller(email: string, businessName?: string): Promise<DashboardSeller>;
  close(): Promise<void>;
}

/** axe-core on the view at both widths (no serious or critical violation, no sideways scroll), then back to the desktop. */
export async function checkView(
  page: Page,
  name: string,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    const result = await new AxeBuilder({ page }).analyze();
    const serious = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `${name} at ${size.width} px`).toEqual([]);
    await noHorizontalScroll(page);
    await shot(page, `${name}-${size.width}`);
  }
}

export async function openDashboard(
  options: {
    email?: string;
    businessName?: string;
    runtime?: RuntimeOptions;
    /** Statuses the page's script gets and shows (Chromium logs them as failed loads). */
    shownStatuses?: readonly number[];
    screenshotPrefix?: string;
  } = {},
): Promise<Dashboard> {
  const runtime = await startTestRuntime(options.runtime);
  const api = client(runtime.baseUrl);

  async function newSeller(email: string, businessName = 'Padaria da Ana'): Promise<DashboardSeller> {
    const signUp = await api.post('/api/auth/sign-up', {
      email,
      password: SELLER_PASSWORD,
      businessName,
      document: '111.444.777-35',
    });
    expect(signUp.status, JSON.stringify(signUp.body)).toBe(202);
    const mail = runtime.mailbox.all().find((m) => m.to === email && /Confirme/.test(m.subject));
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    expect((await api.post('/api/auth/confirm', { email, code })).status).toBe(200);
    const login = await api.post('/api/auth/login', { email, password: SELLER_PASSWORD });
    expect(login.status).toBe(200);
    const idToken = login.body.idToken as string;
    const key = await api.post(
      '/api/api-keys',
      { name: 'Testes', environment: 'test' },
      { token: idToken, headers: { 'x-environment': 'test' } },
    );
    expect(key.status).toBe(201);
    return { email, idToken, testKey: key.body.key as string };
  }

  const seller = await newSeller(options.email ?? 'ana@padaria.example.com', options.businessName);
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: runtime.baseUrl });
  // 401: the first load asks the refresh route with no cookie.
  const watched = await watchPage(context, { shownStatuses: [401, ...(options.shownStatuses ?? [])] });
  const page = watched.page;
  await page.goto(`${runtime.baseUrl}/dashboard`);
  await page.getByLabel('E-mail').fill(seller.email);
  await page.getByLabel('Senha').fill(SELLER_PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('heading', { level: 1, name: 'Início' }).waitFor();

  const shot = screenshots(options.screenshotPrefix ?? 'dashboard-');
  return {
    runtime,
    api,
    browser,
    watched,
    page,
    seller,
    newSeller,
    checkView: (name) => checkView(page, name, shot),
    async goTo(label, heading) {
      await page
        .getByRole('navigation', { name: 'Menu principal' })
        .getByRole('link', { name: label })
        .click();
      await page.getByRole('heading', { level: 1, name: heading ?? label }).waitFor();
    },
    async close() {
      await browser.close();
      await runtime.stop();
    },
  };
}
