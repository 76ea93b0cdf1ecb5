import type { ScheduledChargeDeps } from '#shared/domain/scheduled-charges/deps';
import { assetReplier, pageReply } from '#shared/http/page-replies';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import { once } from '#shared/once';
import { CHARGE_ASSET_FILES } from './assets';
import { chargePaymentRoutes } from './routes';

// The group's use cases load on its first request, not at cold start (./use-cases.ts).
const useCases = once(() => import('./use-cases'));

const chargeAssetReply = assetReplier(CHARGE_ASSET_FILES);

export const handler = createHttpHandler(chargePaymentRoutes, (c) => {
  // A change is saved before its due job is scheduled: a failed schedule is reported and left to the sweep.
  const engine: ScheduledChargeDeps = {
    scheduledCharges: c.repos.scheduledCharges,
    transactions: c.repos.transactions,
    customers: c.repos.customers,
    products: c.repos.products,
    paymentMethods: c.repos.paymentMethods,
    payments: c.payments,
    scheduler: c.scheduler,
    mailer: c.mailer,
    clock: c.clock,
    ids: c.ids,
    baseUrl: c.config.publicBaseUrl,
    reporter: c.reporter,
  };
  const run = async <T>(work: (u: Awaited<ReturnType<typeof useCases>>) => Promise<T>) =>
    work(await useCases());
  return {
    listScheduledChargeAttempts: async ({ tenant, path, query }) =>
      run((u) => u.listAttempts(c.repos, tenant, path.id, query)),
    changeScheduledChargePaymentMethod: async ({ tenant, path, body }) =>
      run((u) => u.changeChargePaymentMethod(engine, tenant, path.id, body)),
    clearScheduledChargePaymentMethod: async ({ tenant, path }) =>
      run((u) => u.clearChargePaymentMethod(engine, tenant, path.id)),
    getChargePage: async ({ path }) =>
      pageReply(
        await run((u) => u.chargePage({ payLinkView: (t) => u.payLinkView(engine, t) }, path.payToken)),
      ),
    getChargePageAsset: async ({ path }) => chargeAssetReply(path.file),
    getPayLink: async ({ path }) => run((u) => u.payLinkView(engine, path.payToken)),
    payPayLinkByCard: async ({ path, body, request }) =>
      reply(
        201,
        await run((u) =>
          u.payLinkByCard(
            {
              ...engine,
              rateLimits: c.repos.rateLimits,
              cardKeys: c.cardKeys,
              buyerIp: request.sourceIp,
            },
            path.payToken,
            body,
            { ip: request.sourceIp, proof: request.headers[u.PROOF_HEADER] },
          ),
        ),
      ),
  };
});
