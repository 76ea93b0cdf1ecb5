import { createHttpHandler } from '#shared/http/pipeline';
import { webhookEndpointRoutes } from './routes';

export const handler = createHttpHandler(webhookEndpointRoutes);
