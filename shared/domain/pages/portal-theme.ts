/**
 * The portal's seller colour under a CSP that allows no inline style (no `style` attribute, no
 * `<style>` element, no nonce): the page links a tiny style sheet whose URL names the colour,
 * `/pages/themes/257264`, and whose whole text is a function of that URL. Any colour a seller
 * configures is then a cacheable file of this origin, and nothing seller-written ever reaches CSS.
 */

export const THEME_PATH = '/pages/themes';
/** The spec's default primaryColor. */
export const DEFAULT_THEME = '257264';
/** A theme's URL segment: six lowercase hex digits, nothing else (the route refuses anything else). */
export const THEME_COLOR = /^[0-9a-f]{6}$/;

/** `#257264` or `#ABC` → `257264` / `aabbcc`; anything that is not a hex colour → the default. */
export function themeColor(primaryColor: string | null | undefined): string {
  const m = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(primaryColor?.trim() ?? '');
  if (!m) return DEFAULT_THEME;
  const hex = m[1].toLowerCase();
  return hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
}

export const themeHref = (primaryColor: string | null | undefined) =>
  `${THEME_PATH}/${themeColor(primaryColor)}`;

const channels = (hex: string) => [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

/** WCAG 2 relative luminance of an sRGB colour. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const WHITE = 'ffffff';
const INK = '111827';

/** `share` of the colour over white (a tint for soft backgrounds). */
const tint = (hex: string, share: number) =>
  channels(hex)
    .map((v) =>
      Math.round(255 - (255 - v) * share)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');

/**
 * The theme's custom properties: the brand colour, the text colour that reads best on it (white or
 * near-black, whichever contrasts more), the colour for brand text on the white page (the brand
 * itself only when it reaches 4.5:1 on white, else near-black) and a soft tint.
 */
export function themeCss(color: string): string {
  const onBrand = contrastRatio(color, WHITE) >= contrastRatio(color, INK) ? WHITE : INK;
  const ink = contrastRatio(color, WHITE) >= 4.5 ? color : INK;
  return `:root{--brand:#${color};--brand-text:#${onBrand};--brand-ink:#${ink};--brand-soft:#${tint(color, 0.12)}}\n`;
}
