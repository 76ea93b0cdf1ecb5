import * as z from 'zod';
import { notificationResultResponse } from '#shared/domain/transactions/responses';

export const providerConnectionResponse = z
  .object({
    provider: z.string().describe('asaas'),
    environment: z.enum(['sandbox', 'production']).describe('The Asaas environment of the connected account'),
    accountName: z.string().describe('The account name Asaas reported when the key was checked'),
    apiKeyLast4: z
      .string()
      .describe('The last 4 characters of the stored key (the key itself is never shown)'),
    connectedAt: z.string(),
  })
  .meta({ id: 'ProviderConnection' });

export const providerConnectedResponse = providerConnectionResponse
  .extend({
    webhook: z
      .object({
        url: z.string().describe('Paste into Asaas: Integrations > Webhooks, API v3'),
        authToken: z.string().describe('Paste as the webhook authentication token; shown once'),
        header: z.string().describe('The header Asaas sends it in'),
      })
      .describe('Shown once: a reconnection issues a new token'),
  })
  .meta({ id: 'ProviderConnected' });

export const asaasNotificationResponse = z.union([
  notificationResultResponse,
  z.object({
    received: z.boolean(),
    applied: z.boolean().describe('false: the event moves no transaction'),
    reason: z.string(),
  }),
  z
    .object({
      received: z.boolean(),
      applied: z.boolean(),
      authorizationId: z.string(),
      status: z
        .enum(['pending', 'active', 'revoked'])
        .describe("the Pix Automático authorization's status now"),
    })
    .meta({ id: 'AsaasAuthorizationEventResult' }),
]);
