import { createHttpHandler } from '#shared/http/pipeline';
import { productRoutes } from './routes';

export const handler = createHttpHandler(productRoutes);
