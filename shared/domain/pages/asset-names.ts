// The pages' file names, apart from the page modules so that the route table (which validates
// `{file}` against them) does not load every page's template at cold start.

/** The page's own files, served by the pages group (no CDN, nothing inline: see the CSP). */
export const PAGE_ASSETS = ['checkout.js', 'checkout.css'] as const;

/** The portal page's own files (served by the pages group beside the checkout's). */
export const PORTAL_ASSETS = ['portal.js', 'portal.css'] as const;

/** The customer area's own files (served by the pages group beside the checkout's). */
export const MINHA_AREA_ASSETS = ['minha-area.js', 'minha-area.css'] as const;

/** The charge page's own script, served by the charge-payments group under CHARGE_ASSET_PATH. */
export const CHARGE_ASSETS = ['charge.js'] as const;
