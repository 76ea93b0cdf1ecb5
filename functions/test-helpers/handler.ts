import { createHttpHandler } from '#shared/http/pipeline';
import { testHelperRoutes } from './routes';

export const handler = createHttpHandler(testHelperRoutes);
