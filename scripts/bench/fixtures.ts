import { createServer, type Server } from 'node:http';
import { createApiKey } from '#shared/domain/auth/api-keys';
import type { Reporter } from '#shared/domain/ports';
import { portalConfigSchema } from '#shared/domain/products/portal-config';
import { createProduct, createProductSchema, type ProductView } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { createEndpoint } from '#shared/domain/webhooks/endpoints';
import type { BenchContext } from './recipes';

/**
 * Set-up for the recipes, straight through the domain (no HTTP, not measured, no rate-limit hit),
 * like BenchContext.createKeys. A dashboard JWT without X-Environment acts on the live tenant.
 */
/** A fixture must not go on past a failure that a request would only report: it fails the bench. */
export const throwingReporter: Reporter = {
  error: (_what, error) => {
    throw error;
  },
};

export const live = (sellerId: number): Tenant => ({ sellerId, environment: 'live' });
export const sandbox = (sellerId: number): Tenant => ({ sellerId, environment: 'test' });

let receiver: Promise<string> | undefined;

/**
 * URL of a webhook receiver on 127.0.0.1 that answers 200 to everything (the local runtime alone
 * accepts http://127.0.0.1). One per bench run; unref'd and without keep-alive, so it never holds
 * the process open after the runtime stopped.
 */
export function receiverUrl(): Promise<string> {
  receiver ??= new Promise<string>((ok, fail) => {
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
        res.end('ok');
      });
    });
    server.keepAliveTimeout = 1;
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      const address = server.address();
      ok(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`);
    });
  });
  return receiver;
}

/** A sandbox (sk_test_) API key of the seller: test helpers and sandbox deliveries need one. */
export async function testApiKey(
  ctx: BenchContext,
  sellerId: number,
  name = 'bench sandbox',
): Promise<string> {
  const { runtime } = ctx;
  const deps = { apiKeys: runtime.deps.repos.apiKeys, clock: runtime.clock, ids: runtime.deps.ids };
  return (await createApiKey(deps, sellerId, { name, environment: 'test' })).key;
}

/** Webhook endpoints pointing at the receiver; returns their ids. */
export async function createEndpoints(
  ctx: BenchContext,
  tenant: Tenant,
  count: number,
  events: string[] = ['*'],
): Promise<string[]> {
  const { deps } = ctx.runtime;
  const endpointDeps = {
    endpoints: deps.repos.webhookEndpoints,
    clock: deps.clock,
    ids: deps.ids,
    urlPolicy: deps.urlPolicy,
  };
  const url = await receiverUrl();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await createEndpoint(endpointDeps, tenant, { url, events, description: `bench ${i}` });
    ids.push(created.id);
  }
  return ids;
}

/** A valid POST /api/products body (value in reais, at least 5). */
export const productBody = (i: number) => ({
  name: `Bench product ${i}`,
  image: 'https://example.com/bench.png',
  value: 49.9,
  description: 'A product of the bench',
});

export async function createProducts(
  ctx: BenchContext,
  tenant: Tenant,
  count: number,
): Promise<ProductView[]> {
  const { deps } = ctx.runtime;
  const productDeps = {
    products: deps.repos.products,
    clock: deps.clock,
    ids: deps.ids,
    publicBaseUrl: deps.config.publicBaseUrl,
    nextId: () => deps.table.nextId('product'),
  };
  const out: ProductView[] = [];
  for (let i = 0; i < count; i++) {
    out.push(await createProduct(productDeps, tenant, createProductSchema.parse(productBody(i))));
  }
  return out;
}

/** A full portal configuration body (POST/PUT replace the whole configuration). */
export const portalBody = (i: number) => ({
  businessName: `Bench store ${i}`,
  logoUrl: 'https://example.com/logo.png',
  primaryColor: '#257264',
  allowCancelSubscription: true,
  allowUpdatePaymentMethod: true,
  allowUpdateBillingInfo: true,
  allowViewInvoices: true,
  cancelAtPeriodEndOnly: false,
  requireCancelReason: i % 2 === 0,
  customWelcomeText: 'Welcome',
});

/** Stores a portal configuration: the product's own, or the seller's when productId is undefined. */
export async function createPortalConfig(
  ctx: BenchContext,
  tenant: Tenant,
  productId?: number,
): Promise<void> {
  const { deps } = ctx.runtime;
  const fields = portalConfigSchema.parse(portalBody(0));
  await deps.repos.portalConfigs.replace(tenant, productId, fields, deps.clock.now().toISOString());
}

/**
 * Emits sandbox events through POST /api/test-helpers/events (set-up: before the measured window)
 * and moves the clock so that outbox, stream, bus, fan-out and delivery queue all run.
 */
export async function emitAndDeliver(ctx: BenchContext, apiKey: string, count: number): Promise<void> {
  const { runtime } = ctx;
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${runtime.baseUrl}/api/test-helpers/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'product.updated' }),
    });
    const text = await res.text();
    if (res.status !== 201)
      throw new Error(`bench set-up: emitting a test event answered ${res.status} ${text}`);
  }
  await runtime.timeline.advance(5);
}

/** The deliveries of an endpoint, newest first; fails when the receiver did not get them all. */
export async function deliveredIds(ctx: BenchContext, tenant: Tenant, endpointId: string, expected: number) {
  const out = await ctx.runtime.deps.repos.deliveries.listByEndpoint(tenant, endpointId, { limit: 100 });
  const delivered = out.items.filter((d) => d.status === 'succeeded');
  if (delivered.length !== expected) {
    const seen = out.items.map((d) => `${d.status} ${d.lastStatusCode ?? d.lastError}`).join(', ');
    throw new Error(`bench set-up: expected ${expected} delivered events, found [${seen}]`);
  }
  return delivered.map((d) => d.id);
}

/** Enough sellers of their own for `count` creates when each may hold at most `perSeller`. */
export async function sellersFor(ctx: BenchContext, count: number, perSeller: number) {
  const sellers: { sellerId: number; token: string }[] = [];
  for (let made = 0; made < count; made += perSeller) sellers.push(await ctx.newSeller());
  return sellers;
}
