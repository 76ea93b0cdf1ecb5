import * as z from 'zod';
import { MINHA_AREA_ASSETS, PAGE_ASSETS, PORTAL_ASSETS } from '#shared/domain/pages/asset-names';
import { THEME_COLOR } from '#shared/domain/pages/portal-theme';

// Route-local request shapes (./routes.ts).

// Any text reaches the use case: a malformed ref gets the same HTML 404 page as an unknown one.
export const productUuidPageParam = z.object({ productUuid: z.string() });
export const sessionPageParam = z.object({ id: z.string() });
export const pageAssetParam = z.object({
  file: z.enum([...PAGE_ASSETS, ...PORTAL_ASSETS, ...MINHA_AREA_ASSETS]),
});
export const portalPageQuery = z.object({ token: z.string().optional(), updated: z.string().optional() });
export const themeColorParam = z.object({ color: z.string().regex(THEME_COLOR) });
