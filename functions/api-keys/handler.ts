import { createHttpHandler } from '#shared/http/pipeline';
import { apiKeyRoutes } from './routes';

export const handler = createHttpHandler(apiKeyRoutes);
