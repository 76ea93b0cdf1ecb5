import { createHttpHandler } from '#shared/http/pipeline';
import { transactionRoutes } from './routes';

export const handler = createHttpHandler(transactionRoutes);
