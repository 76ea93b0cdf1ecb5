import { create } from 'qrcode/lib/core/qrcode';
import { useMemo } from 'react';

/** Four modules of blank border: the quiet zone ISO/IEC 18004 asks for. */
const QUIET = 4;

/**
 * A QR code drawn as SVG by React (one path of dark modules): no data: URL and no markup injected,
 * so it needs nothing from the CSP. Error correction M, as the pix QR codes of the hosted pages.
 */
export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { path, width } = useMemo(() => {
    const { modules } = create(text, { errorCorrectionLevel: 'M' });
    let d = '';
    for (let y = 0; y < modules.size; y++)
      for (let x = 0; x < modules.size; x++)
        if (modules.data[y * modules.size + x]) d += `M${x + QUIET} ${y + QUIET}h1v1h-1z`;
    return { path: d, width: modules.size + 2 * QUIET };
  }, [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${width} ${width}`}
      shapeRendering="crispEdges"
      className="qr"
    >
      <rect width={width} height={width} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
