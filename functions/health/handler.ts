import { createHttpHandler } from '#shared/http/pipeline';
import { healthRoutes } from './routes';

export const handler = createHttpHandler(healthRoutes);
