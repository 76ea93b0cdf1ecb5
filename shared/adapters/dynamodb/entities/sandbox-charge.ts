import { saoPauloDate } from '#shared/dates';
import { keys } from '../keys';
import { defineEntity } from './entity';

/** Where a sandbox charge record is listed: whose it is, and when it was created. */
export interface SandboxChargePlace {
  gatewayPayId: number;
  sellerId: number;
  createdAt: string;
}

/**
 * The sandbox's own record of a charge (../../sandbox-gateway/records.ts writes its other
 * attributes: method, amount, status, refunds). Its day pattern is how the sandbox lists a seller's
 * charges of a day, as a provider's "list payments" does, for the daily reconciliation.
 */
export const sandboxChargeEntity = defineEntity({
  entity: 'sandbox-charge',
  version: 1,
  key: (c: SandboxChargePlace) => keys.sandboxCharge(c.gatewayPayId),
  patterns: {
    byDay: {
      index: 'gsi1',
      doc: '`SANDBOX#CHARGES#<sellerId>#<day>` / `<gatewayPayId>`: the sandbox charges of a seller created on a Sao Paulo day',
      at: (c) => ({
        pk: keys.sandboxChargesOfDay(c.sellerId, saoPauloDate(new Date(c.createdAt))),
        sk: String(c.gatewayPayId),
      }),
    },
  },
  attributes: (c) => ({ gatewayPayId: c.gatewayPayId, sellerId: c.sellerId, createdAt: c.createdAt }),
  fromItem: (item): SandboxChargePlace => ({
    gatewayPayId: Number(item.gatewayPayId),
    sellerId: Number(item.sellerId),
    createdAt: String(item.createdAt),
  }),
});
