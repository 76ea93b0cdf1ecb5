import { ValidationError } from '#shared/errors';

/** The drawn size of the image; the quiet zone below is inside it. */
export const QR_IMAGE_PIXELS = 240;
/** Four modules of blank border: the quiet zone ISO/IEC 18004 asks for. */
const QUIET_ZONE_MODULES = 4;

/**
 * The QR code of a Pix BR Code ("copia e cola") as an SVG `data:` URL, error correction level M,
 * 240 px wide with a four-module quiet zone. SVG keeps the image small (a few KB against tens
 * for PNG) and the output depends on the text alone, so the same payload gives the same URL.
 * The image is vector only (no script), and a page shows it through <img>, where SVG never runs code.
 */
export async function qrCodeDataUrl(text: string): Promise<string> {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ValidationError('qr code text must not be empty');
  }
  // Loaded on first use (its own chunk): only a pix payment draws a QR code, and the library's
  // module load would otherwise be paid by every cold start of the checkout and pages functions.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: QUIET_ZONE_MODULES,
    width: QR_IMAGE_PIXELS,
    color: { dark: '#000000', light: '#ffffff' },
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/**
 * The modules of the QR code of `text` (error correction level M), row by row, true for dark: what a
 * PDF draws as filled squares (pdf.ts `qrCodeOps`). The quiet zone is the caller's to leave blank.
 */
export async function qrCodeModules(text: string): Promise<boolean[][]> {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ValidationError('qr code text must not be empty');
  }
  const { default: QRCode } = await import('qrcode');
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_, row) =>
    Array.from({ length: modules.size }, (_, col) => Boolean(modules.get(row, col))),
  );
}

/** A hybrid boleto's pix as a page shows it: the copia e cola and its QR code image, or nulls. */
export async function boletoPixView(
  pixQrCode: string | undefined,
): Promise<{ pixQrCode: string | null; pixQrCodeImage: string | null }> {
  return pixQrCode
    ? { pixQrCode, pixQrCodeImage: await qrCodeDataUrl(pixQrCode) }
    : { pixQrCode: null, pixQrCodeImage: null };
}
