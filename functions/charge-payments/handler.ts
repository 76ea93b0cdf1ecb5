import type { ScheduledChargeDeps } from '#shared/domain/scheduled-charges/deps';
import { assetReplier, pageReply } from '#shared/http/page-replies';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { CHARGE_ASSET_FILES } from './assets';
import { chargePaymentRoutes } from './routes';

// Use cases load on their route's first request, not at cold start (docs/decisions.md, "Cold start").
const pagesChargePage = () => import('#shared/domain/pages/charge-page');
const scheduledChargesAttempts = () => import('#shared/domain/scheduled-charges/attempts');
const scheduledChargesPayLink = () => import('#shared/domain/scheduled-charges/pay-link');
const scheduledChargesPayLinkCard = () => import('#shared/domain/scheduled-charges/pay-link-card');
const scheduledChargesPaymentMethod = () => import('#shared/domain/scheduled-charges/payment-method');

const chargeAssetReply = assetReplier(CHARGE_ASSET_FILES);

export const handler = createHttpHandler(chargePaymentRoutes, (c) => {
  // A change is saved before its due job is scheduled: a failed schedule is logged and left to the sweep.
  const engine = (log: Logger): ScheduledChargeDeps => ({
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
    onScheduleError: (error) =>
      log.error('could not schedule a scheduled-charge job or keep a card', { error }),
  });
  return {
    listScheduledChargeAttempts: async ({ tenant, path, query }) =>
      (await scheduledChargesAttempts()).listAttempts(c.repos, tenant, path.id, query),
    changeScheduledChargePaymentMethod: async ({ tenant, path, body, request }) =>
      (await scheduledChargesPaymentMethod()).changeChargePaymentMethod(
        engine(request.log),
        tenant,
        path.id,
        body,
      ),
    clearScheduledChargePaymentMethod: async ({ tenant, path, request }) =>
      (await scheduledChargesPaymentMethod()).clearChargePaymentMethod(engine(request.log), tenant, path.id),
    getChargePage: async ({ path, request }) =>
      pageReply(
        await (await pagesChargePage()).chargePage(
          { payLinkView: async (t) => (await scheduledChargesPayLink()).payLinkView(engine(request.log), t) },
          path.payToken,
        ),
      ),
    getChargePageAsset: async ({ path }) => chargeAssetReply(path.file),
    getPayLink: async ({ path, request }) =>
      (await scheduledChargesPayLink()).payLinkView(engine(request.log), path.payToken),
    payPayLinkByCard: async ({ path, body, request }) =>
      reply(
        201,
        await (await scheduledChargesPayLinkCard()).payLinkByCard(engine(request.log), path.payToken, body),
      ),
  };
});
