import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { chromiumBinary } from './chromium';

/**
 * Starts headless Chromium (and the PAGES_SCREENSHOTS folder, when one is set): the npm package's,
 * or the one `CHROMIUM` names. playwright-core drives it and downloads nothing.
 */
export async function launchChromium(): Promise<Browser> {
  const folder = process.env.PAGES_SCREENSHOTS;
  if (folder) mkdirSync(folder, { recursive: true });
  const { executablePath, args, env } = chromiumBinary();
  return chromium.launch({ executablePath, args, env });
}

/** A phone's viewport (iPhone 12-15 size): every hosted page is checked at this width. */
export const PHONE = { width: 390, height: 844 };

/** A hosted page in Chromium and what it did that a test must see: errors, requests, dialogs. */
export interface Watched {
  page: Page;
  context: BrowserContext;
  /** Console errors (CSP violations included) and uncaught page errors. */
  problems: string[];
  /** Every URL the page asked for. */
  requested: string[];
  /** alert/confirm/prompt texts (each dismissed): a script injected by seller text would show here. */
  dialogs: string[];
}

/**
 * Opens a page in `context` that records console errors, CSP violations (reported as console
 * errors by an init script), page errors, requests and dialogs. `shownStatuses`: HTTP statuses the
 * page's script gets and shows as an answer (a declined card, an expired link), which Chromium
 * logs as failed loads; they are not problems.
 */
export async function watchPage(
  context: BrowserContext,
  options: { shownStatuses?: readonly number[] } = {},
): Promise<Watched> {
  const shown = options.shownStatuses ?? [];
  const page = await context.newPage();
  const watched: Watched = { page, context, problems: [], requested: [], dialogs: [] };
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (shown.some((status) => m.text().includes(`status of ${status}`))) return;
    watched.problems.push(m.text());
  });
  page.on('pageerror', (e) => watched.problems.push(`page error: ${e.message}`));
  page.on('request', (r) => watched.requested.push(r.url()));
  page.on('dialog', (d) => {
    watched.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) =>
      console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));`,
  });
  return watched;
}

/** The page fits the viewport's width (no sideways scrolling on a phone). */
export async function noHorizontalScroll(page: Page): Promise<void> {
  // No DOM types in this project: the browser-side expression is a string.
  const [scroll, width] = await page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
  );
  expect(scroll).toBeLessThanOrEqual(width);
}

/**
 * `shot(page, name)` keeps a full-page screenshot `<prefix><name>.png` in PAGES_SCREENSHOTS when that
 * folder is set (for a person to look at; never committed), and does nothing otherwise.
 */
export function screenshots(prefix: string) {
  const folder = process.env.PAGES_SCREENSHOTS;
  return async (page: Page, name: string) => {
    if (folder) await page.screenshot({ path: join(folder, `${prefix}${name}.png`), fullPage: true });
  };
}
