import * as z from 'zod';
import { CHARGE_ASSETS } from '#shared/domain/pages/asset-names';

// Route-local request shapes (./routes.ts).

/** Any text reaches the use case: a malformed token gets the same 404 (page or JSON) as an unknown one. */
export const payTokenParam = z.object({ payToken: z.string() });
export const chargeAssetParam = z.object({ file: z.enum(CHARGE_ASSETS) });
