import type { AuthScheme, RouteGroup } from '#shared/http/types';
import { cancelCharge, listCharges, sandboxBoletoPdf } from './charges';
import {
  cancelByGatewayPayId,
  create,
  get,
  list,
  notification,
  productOwnerScope,
  refund,
  status,
} from './transactions';

/** Spec rule 3: the "gateway" scheme of list/read/refund is an API key or the dashboard JWT here. */
const gateway: AuthScheme[] = ['apiKey', 'jwt'];

export const transactionRoutes: RouteGroup = {
  name: 'transactions',
  routes: [
    {
      method: 'POST',
      path: '/api/transactions',
      auth: [],
      idempotent: { scope: productOwnerScope },
      summary: "The buyer's checkout creates a transaction",
      handler: create,
    },
    {
      method: 'GET',
      path: '/api/transactions',
      auth: gateway,
      summary: "List the seller's transactions",
      handler: list,
    },
    {
      method: 'POST',
      path: '/api/transactions/handle-webhook',
      auth: [],
      summary: 'Signed notification from the payment provider',
      handler: notification,
    },
    {
      method: 'GET',
      path: '/api/transactions/status/{gatewayPayId}',
      auth: [],
      summary: 'Public status by the provider id',
      handler: status,
    },
    {
      method: 'GET',
      path: '/api/transactions/{id}',
      auth: gateway,
      summary: 'Transaction detail',
      handler: get,
    },
    {
      method: 'DELETE',
      path: '/api/transactions/{id}',
      auth: ['panel'],
      summary: 'Cancel an unpaid transaction by its gatewayPayId (panel only)',
      handler: cancelByGatewayPayId,
    },
    {
      method: 'POST',
      path: '/api/transactions/{id}/refund',
      auth: gateway,
      summary: 'Refund in whole or in part',
      handler: refund,
    },
    {
      method: 'GET',
      path: '/api/v1/charges',
      auth: ['apiKey'],
      summary: 'Charges, cursor pages',
      handler: listCharges,
    },
    {
      method: 'DELETE',
      path: '/api/v1/charges/{uuid}',
      auth: ['apiKey'],
      summary: 'Cancel an unpaid charge',
      handler: cancelCharge,
    },
    {
      method: 'GET',
      path: '/api/sandbox/boletos/{gatewayPayId}/pdf',
      auth: [],
      summary: "The sandbox provider's boleto PDF",
      handler: sandboxBoletoPdf,
    },
  ],
};
