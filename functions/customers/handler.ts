import { createHttpHandler } from '#shared/http/pipeline';
import { customerRoutes } from './routes';

export const handler = createHttpHandler(customerRoutes);
