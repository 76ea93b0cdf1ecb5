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
import { CHARGE_ASSET_FILES } from './assets';
import { chargePaymentRoutes } from './routes';

const chargeAssetReply = assetReplier(CHARGE_ASSET_FILES);

export const group = defineHandlers(chargePaymentRoutes, ({ deps }) => {
  // A change is saved before its due job is scheduled: a failed schedule is logged and left to the sweep.
  return {
    listScheduledChargeAttempts: ({ tenant, path, query }) => listAttempts(deps, tenant, path.id, query),
    changeScheduledChargePaymentMethod: ({ tenant, path, body }) =>
      changeChargePaymentMethod(deps, tenant, path.id, body),
    clearScheduledChargePaymentMethod: ({ tenant, path }) => clearChargePaymentMethod(deps, tenant, path.id),
    getChargePage: async ({ path }) =>
      pageReply(await chargePage({ payLinkView: (t) => payLinkView(deps, t) }, path.payToken)),
    getChargePageAsset: async ({ path }) => chargeAssetReply(path.file),
    getPayLink: ({ path }) => payLinkView(deps, path.payToken),
    payPayLinkByCard: async ({ path, body, request }) =>
      reply(
        201,
        await payLinkByCard({ ...deps, buyerIp: request.sourceIp }, path.payToken, body, {
          ip: request.sourceIp,
          proof: request.headers[PROOF_HEADER],
        }),
      ),
  };
});
