import { describe, expect, it } from 'vitest';
import { buildPixPayload } from '#shared/domain/payments/pix';
import { QR_IMAGE_PIXELS, qrCodeDataUrl } from '#shared/domain/payments/qr-image';
import { ValidationError } from '#shared/errors';

const BR_CODE = buildPixPayload({
  locationUrl: 'https://pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25',
  amountCentavos: 4990,
  merchantName: 'Loja Exemplo',
  merchantCity: 'Sao Paulo',
  txid: '***',
});

function svgOf(dataUrl: string): string {
  return Buffer.from(dataUrl.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
}

describe('qrCodeDataUrl', () => {
  it('is an SVG data URL of the requested size', async () => {
    const url = await qrCodeDataUrl(BR_CODE);
    expect(url).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/);
    const svg = svgOf(url);
    expect(svg).toContain('<svg');
    expect(svg).toContain(`width="${QR_IMAGE_PIXELS}"`);
    expect(svg).not.toMatch(/<script|on\w+=/i);
  });

  it('keeps a four-module quiet zone: the viewBox is the matrix plus 8 modules', async () => {
    const svg = svgOf(await qrCodeDataUrl(BR_CODE));
    const [, size] = /viewBox="0 0 (\d+) \1"/.exec(svg) ?? [];
    // QR versions are 21 + 4k modules wide; with 4 blank modules each side the view is 29 + 4k.
    expect((Number(size) - 29) % 4).toBe(0);
    // The dark path never starts on the quiet zone: its first move is at (4, y≥4).
    expect(svg).toMatch(/<path[^>]*stroke="#000000"[^>]*d="M4 4\.5/);
  });

  it('is deterministic and differs between payloads', async () => {
    const [a, b, other] = await Promise.all([
      qrCodeDataUrl(BR_CODE),
      qrCodeDataUrl(BR_CODE),
      qrCodeDataUrl(`${BR_CODE}x`),
    ]);
    expect(a).toBe(b);
    expect(other).not.toBe(a);
  });

  it.each(['', '   '])('rejects empty text %j', async (text) => {
    await expect(qrCodeDataUrl(text)).rejects.toBeInstanceOf(ValidationError);
  });
});
