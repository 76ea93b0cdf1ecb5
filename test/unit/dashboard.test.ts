import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '#events/catalog';
import { Session } from '../../dashboard/src/app/session';
import { maskDocument } from '../../dashboard/src/features/auth/document-mask';
import { DEPRECATED_EVENTS, EVENT_GROUPS } from '../../dashboard/src/features/developers/event-sentences';
import { DASHBOARD_TYPES_FILE, dashboardTypes } from '../../scripts/dashboard-types';

describe('the dashboard API types', () => {
  it('are what openapi-typescript makes of docs/openapi.json (run `npm run openapi` after a route change)', async () => {
    expect(readFileSync(DASHBOARD_TYPES_FILE, 'utf8')).toBe(await dashboardTypes());
  });
});

describe('the webhook event picker', () => {
  it('has one Portuguese sentence for every event of the catalog, and no other', () => {
    const offered = EVENT_GROUPS.flatMap((g) => Object.keys(g.events));
    const current = EVENT_CATALOG.filter((e) => !e.deprecated).map((e) => e.name);
    const deprecated = EVENT_CATALOG.filter((e) => e.deprecated).map((e) => e.name);
    expect([...offered].sort()).toEqual([...current].sort());
    expect(Object.keys(DEPRECATED_EVENTS).sort()).toEqual(deprecated.sort());
    for (const group of EVENT_GROUPS)
      for (const sentence of Object.values(group.events)) expect(sentence).toMatch(/\.$/);
  });
});

/**
 * The component is TSX of the dashboard's own project (`tsc -p dashboard` checks it); this project
 * has neither JSX nor the DOM types React's bring, so React and the component are imported by
 * names its typecheck does not follow, and vitest compiles them.
 */
const modules = {
  react: 'react',
  server: 'react-dom/server',
  endpointDetail: '../../dashboard/src/features/developers/endpoint-detail.tsx',
};
const { createElement } = (await import(modules.react)) as {
  createElement: (type: unknown, props: unknown) => unknown;
};
const { renderToStaticMarkup } = (await import(modules.server)) as {
  renderToStaticMarkup: (element: unknown) => string;
};
const { DeliveryItem } = (await import(modules.endpointDetail)) as { DeliveryItem: unknown };

describe("a delivery log's item", () => {
  const delivery = {
    id: 'whd_0Z4FNqdE5j7rKSgzWCD0_67971e0eb9dca7ba',
    endpointId: 'we_0Z4FNqdE5j7rKSgzWCD0',
    eventId: 'evt_OzA0t9sEpX9BxA6ObA2rmwBx',
    event: 'transaction.paid',
    status: 'pending' as const,
    attemptCount: 1,
    lastStatusCode: 500,
    lastDurationMs: 84,
    lastError: null,
    lastResponseExcerpt: '<script>alert(1)</script>\n{"error":"boom"}',
    lastAttemptAt: '2026-11-28T17:10:22.699Z',
    nextAttemptAt: '2026-11-28T17:11:22.671Z',
    createdAt: '2026-11-28T17:10:22.671Z',
    updatedAt: '2026-11-28T17:10:22.700Z',
  };

  it("shows the answer's excerpt as text in a code block, escaped", () => {
    const html = renderToStaticMarkup(createElement(DeliveryItem, { delivery }));
    expect(html).toContain(
      '<pre class="excerpt"><code>&lt;script&gt;alert(1)&lt;/script&gt;\n{&quot;error&quot;:&quot;boom&quot;}</code></pre>',
    );
    expect(html).not.toContain('<script>');
  });

  it('shows no excerpt block when the answer had no body', () => {
    const html = renderToStaticMarkup(
      createElement(DeliveryItem, { delivery: { ...delivery, lastResponseExcerpt: null } }),
    );
    expect(html).not.toContain('<code>&lt;');
    expect(html).not.toContain('Início da resposta');
  });
});

describe('the CPF or CNPJ mask', () => {
  it.each([
    ['5299822', '529.982.2'],
    ['52998224725', '529.982.247-25'],
    ['529.982.247-25', '529.982.247-25'],
    ['112223330001', '11.222.333/0001'],
    ['11222333000181', '11.222.333/0001-81'],
    ['11.222.333/0001-81x9', '11.222.333/0001-81'],
  ])('%s is shown as %s', (typed, shown) => {
    expect(maskDocument(typed)).toBe(shown);
  });
});

describe('the session', () => {
  const grant = (idToken: string) => ({ idToken, expiresIn: 300 });

  it('keeps the token until a minute before it ends, then refreshes once for concurrent requests', async () => {
    let now = 0;
    let refreshes = 0;
    const session = new Session(
      {
        refresh: async () => grant(`t${++refreshes}`),
        logout: async () => {},
      },
      () => now,
    );
    session.signIn(grant('t0'));
    now = 239_000;
    expect(await session.token()).toBe('t0');
    now = 241_000;
    expect(await Promise.all([session.token(), session.token()])).toEqual(['t1', 't1']);
    expect(refreshes).toBe(1);
  });

  it('starts signed out when the refresh cookie gives no session, and signs out even when logout fails', async () => {
    const session = new Session({
      refresh: async () => null,
      logout: async () => {
        throw new Error('offline');
      },
    });
    await session.start();
    expect(session.state).toBe('signedOut');
    session.signIn(grant('t0'));
    await expect(session.signOut()).rejects.toThrow('offline');
    expect(session.state).toBe('signedOut');
    expect(await session.token()).toBeNull();
  });
});
