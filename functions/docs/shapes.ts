import * as z from 'zod';
import { REFERENCE_ASSETS } from './asset-names';

// Route-local request shapes (./routes.ts).
export const referenceAssetParam = z.object({ file: z.enum(REFERENCE_ASSETS) });
