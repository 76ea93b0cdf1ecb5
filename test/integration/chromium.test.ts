import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumBinary } from '../support/chromium';

describe('the Chromium the tests drive', () => {
  it('is the one npm installed (@sparticuz/chromium) when CHROMIUM is not set, and it renders a page', async () => {
    const binary = chromiumBinary({ ...process.env, CHROMIUM: '' });
    expect(binary.source).toBe('npm');
    expect(binary.executablePath).toContain('/node_modules/.cache/chromium-');
    // Nothing of the machine's: the binary runs with the libraries unpacked beside it.
    const libraries = execFileSync('ldd', [binary.executablePath], {
      env: binary.env as NodeJS.ProcessEnv,
      encoding: 'utf8',
    });
    expect(libraries).not.toContain('not found');
    expect(libraries).toMatch(/libnss3\.so => \S*node_modules\/\.cache\/chromium-/);

    const browser = await chromium.launch(binary);
    try {
      const page = await browser.newPage();
      await page.setContent('<main><h1>Pagamento aprovado</h1><p>R$ 1.234,56</p></main>');
      expect(await page.textContent('h1')).toBe('Pagamento aprovado');
      // Text is drawn with the fonts the package ships: a glyph has a width.
      expect(
        await page.evaluate<number>("document.querySelector('p').getBoundingClientRect().width"),
      ).toBeGreaterThan(20);
    } finally {
      await browser.close();
    }
  });

  it('is the browser CHROMIUM names when it is set, and a clear error when that file is missing', () => {
    expect(chromiumBinary({ CHROMIUM: process.execPath })).toMatchObject({
      executablePath: process.execPath,
      source: 'CHROMIUM',
    });
    expect(() => chromiumBinary({ CHROMIUM: '/nowhere/chromium' })).toThrow(
      'CHROMIUM names /nowhere/chromium, which does not exist',
    );
  });
});
