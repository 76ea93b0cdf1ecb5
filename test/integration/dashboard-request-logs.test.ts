import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, openDashboard } from '../support/dashboard';

/** Desenvolvedores, Registros de API: the sandbox's requests, filtered, and none of another seller's. */

let d: Dashboard;
beforeAll(async () => {
  d = await openDashboard({ email: 'dev@loja.example.com', screenshotPrefix: 'dashboard-request-logs-' });
}, 120_000);
afterAll(async () => {
  await d?.close();
});

/** Until the request log (read with `key`) has an entry `pick` matches: bounded, never a sleep. */
async function logged(key: string, pick: (e: any) => boolean) {
  for (let i = 0; i < 200; i++) {
    await d.runtime.timeline.tick();
    const page = await d.api.get('/api/request-logs?limit=100', { token: key });
    if (page.body.data.some(pick)) return;
  }
  throw new Error('the request log never showed the request');
}

describe('Registros de API in the dashboard', () => {
  it("lists the sandbox's API requests with status and latency, filters them, and shows another seller none", async () => {
    const { page } = d;
    const key = d.seller.testKey;
    const created = await d.api.post(
      '/api/products',
      { name: 'Curso', image: 'https://example.com/c.png', value: 49.9 },
      { token: key, headers: { 'x-idempotency-key': 'curso-1' } },
    );
    expect(created.status).toBe(201);
    expect((await d.api.get('/api/products/424242', { token: key })).status).toBe(404);
    await logged(key, (e) => e.status === 404);

    await page.getByRole('switch', { name: 'Modo de teste' }).check();
    await d.goTo('Registros de API');
    const list = page.getByRole('list', { name: 'Requisições' });
    await list.getByText('POST /api/products').first().waitFor();
    await expect.poll(() => list.textContent()).toContain('curso-1');
    await expect.poll(() => list.textContent()).toContain('GET /api/products/{id}');
    await d.checkView('request-logs');

    await page.getByLabel('Status').fill('404');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/status=404/);
    // The 404 shown and the 201 gone, in the same rendering.
    await expect
      .poll(async () => {
        const text = (await list.textContent()) ?? '';
        return text.includes('GET /api/products/{id}') && !text.includes('POST /api/products');
      })
      .toBe(true);

    const other = await d.newSeller('outra@loja.example.com', 'Outra Loja');
    const seenByOther = await d.api.get('/api/request-logs?limit=100', { token: other.testKey });
    // Its own sign-up's key creation only: nothing of the first seller's.
    const paths = seenByOther.body.data.map((e: any) => e.path);
    expect(paths).not.toContain('/api/products');
    expect(paths).not.toContain('/api/products/{id}');
  });
});
