import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The text of a PDF as a reader would copy it, one line per text run that ends a line (PDF.js, the
 * legacy build that runs in Node; no poppler, no system package).
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  // PDF.js takes ownership of the array it is given: hand it a copy.
  const loading = getDocument({ data: new Uint8Array(pdf), verbosity: 0 });
  const doc = await loading.promise;
  try {
    const lines: string[] = [];
    let line = '';
    for (let n = 1; n <= doc.numPages; n++) {
      const { items } = await (await doc.getPage(n)).getTextContent();
      for (const item of items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        } else line += ' ';
      }
      if (line.trim()) lines.push(line.trim());
      line = '';
    }
    return lines.join('\n');
  } finally {
    await loading.destroy();
  }
}
