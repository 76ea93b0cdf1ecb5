import { PROOF_HEADER } from '#shared/domain/card-testing/proof-of-work';
import { chargePage } from '#shared/domain/pages/charge-page';
import { listAttempts } from '#shared/domain/scheduled-charges/attempts';
import { payLinkView } from '#shared/domain/scheduled-charges/pay-link';
import { payLinkByCard } from '#shared/domain/scheduled-charges/pay-link-card';
import {
  changeChargePaymentMethod,
  clearChargePaymentMethod,
} from '#shared/domain/scheduled-charges/payment-method';
import { assetReplier, pageReply } from '#shared/http/page-replies';
import { defineHandlers } from '#shared/http/pipeline';
import { reply } from '#shared/http/types';
import type { Logger } from '#shared/logger';
import { CHARGE_ASSET_FILES } from './assets';
import { chargePaymentRoutes } from './routes';

const chargeAssetReply = assetReplier(CHARGE_ASSET_FILES);

export const group = defineHandlers(chargePaymentRoutes, ({ deps }) => {
  // A change is saved before its due job is scheduled: a failed schedule is logged and left to the sweep.
  const logged = (log: Logger) => ({
    ...deps,
    onScheduleError: (error: unknown) =>
      log.error('could not schedule a scheduled-charge job or keep a card', { error }),
  });
  return {
    listScheduledChargeAttempts: ({ tenant, path, query }) => listAttempts(deps, tenant, path.id, query),
    changeScheduledChargePaymentMethod: ({ tenant, path, body, request }) =>
      changeChargePaymentMethod(logged(request.log), tenant, path.id, body),
    clearScheduledChargePaymentMethod: ({ tenant, path, request }) =>
      clearChargePaymentMethod(logged(request.log), tenant, path.id),
    getChargePage: async ({ path, request }) =>
      pageReply(await chargePage({ payLinkView: (t) => payLinkView(logged(request.log), t) }, path.payToken)),
    getChargePageAsset: async ({ path }) => chargeAssetReply(path.file),
    getPayLink: ({ path, request }) => payLinkView(logged(request.log), path.payToken),
    payPayLinkByCard: async ({ path, body, request }) =>
      reply(
        201,
        await payLinkByCard({ ...logged(request.log), buyerIp: request.sourceIp }, path.payToken, body, {
          ip: request.sourceIp,
          proof: request.headers[PROOF_HEADER],
        }),
      ),
  };
});
