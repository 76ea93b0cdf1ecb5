import * as z from 'zod';
import { REFERENCE_ASSETS } from './asset-names';

// The reference asset route's path shape, loaded on its first request (./routes.ts names it through
// lazySchemas), so that the route table, which every cold start loads, loads no zod.
export const referenceAssetParam = z.object({ file: z.enum(REFERENCE_ASSETS) });
