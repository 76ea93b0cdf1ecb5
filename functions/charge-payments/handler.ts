import { chargePage } from '#shared/domain/pages/charge-page';
import { listAttempts } from '#shared/domain/scheduled-charges/attempts';
import type { ScheduledChargeDeps } from '#shared/domain/scheduled-charges/deps';
import { payLinkView } from '#shared/domain/scheduled-charges/pay-link';
import { payLinkByCard } from '#shared/domain/scheduled-charges/pay-link-card';
import {
  changeChargePaymentMethod,
  clearChargePaymentMethod,
} from '#shared/domain/scheduled-charges/payment-method';
import { assetReplier, pageReply } from '#shared/http/page-replies';
import { createHttpHandler } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { CHARGE_ASSET_FILES } from './assets';
import { chargePaymentRoutes } from './routes';

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
    listScheduledChargeAttempts: ({ tenant, path, query }) => listAttempts(c.repos, tenant, path.id, query),
    changeScheduledChargePaymentMethod: ({ tenant, path, body, request }) =>
      changeChargePaymentMethod(engine(request.log), tenant, path.id, body),
    clearScheduledChargePaymentMethod: ({ tenant, path, request }) =>
      clearChargePaymentMethod(engine(request.log), tenant, path.id),
    getChargePage: async ({ path, request }) =>
      pageReply(await chargePage({ payLinkView: (t) => payLinkView(engine(request.log), t) }, path.payToken)),
    getChargePageAsset: ({ path }) => chargeAssetReply(path.file),
    getPayLink: ({ path, request }) => payLinkView(engine(request.log), path.payToken),
    payPayLinkByCard: async ({ path, body, request }) =>
      reply(201, await payLinkByCard(engine(request.log), path.payToken, body)),
  };
});
