import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';

/** How the tests start Chromium: the binary, its flags and its environment. */
export interface ChromiumBinary {
  executablePath: string;
  args: string[];
  env: Record<string, string | undefined>;
  /** `CHROMIUM` (a browser of this machine) or `npm` (the one @sparticuz/chromium ships). */
  source: 'CHROMIUM' | 'npm';
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The Chromium the tests drive. `CHROMIUM` names one of this machine (Debian's `/usr/bin/chromium`,
 * say); otherwise the headless shell that @sparticuz/chromium ships brotli-compressed inside its npm
 * package, unpacked once into node_modules/.cache with the NSS libraries and fonts it ships beside it,
 * so that `npm ci` is the only install step (no system package, no download, no install script).
 */
export function chromiumBinary(env: NodeJS.ProcessEnv = process.env): ChromiumBinary {
  const chosen = env.CHROMIUM;
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`CHROMIUM names ${chosen}, which does not exist`);
    return { executablePath: chosen, args: ['--no-sandbox'], env: { ...env }, source: 'CHROMIUM' };
  }
  const dir = unpackedChromium();
  return {
    executablePath: join(dir, 'chromium'),
    args: ['--no-sandbox'],
    // The binary links NSS and expat dynamically: the AL2023 builds the package ships need only glibc.
    env: {
      ...env,
      LD_LIBRARY_PATH: [join(dir, 'lib'), env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_PATH: dir,
    },
    source: 'npm',
  };
}

/**
 * node_modules/.cache/chromium-<version>, unpacked on first use. Each process unpacks into a folder
 * of its own and renames it into place, so test workers starting together never see half a binary.
 */
export function unpackedChromium(): string {
  const require = createRequire(import.meta.url);
  const packageRoot = resolve(dirname(require.resolve('@sparticuz/chromium')), '..');
  const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
    version: string;
  };
  const target = join(root, 'node_modules', '.cache', `chromium-${version}`);
  if (existsSync(join(target, 'chromium'))) return target;

  const bin = join(packageRoot, 'bin');
  const work = `${target}.${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(work, { recursive: true });
  try {
    writeFileSync(join(work, 'chromium'), brotliDecompressSync(readFileSync(join(bin, 'chromium.br'))), {
      mode: 0o755,
    });
    untar(brotliDecompressSync(readFileSync(join(bin, 'al2023.tar.br'))), work);
    untar(brotliDecompressSync(readFileSync(join(bin, 'fonts.tar.br'))), work);
    // The package's fonts.conf names Lambda's folders; this one names the unpacked fonts.
    writeFileSync(
      join(work, 'fonts.conf'),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        `  <dir>${join(target, 'fonts')}</dir>`,
        `  <cachedir>${join(target, 'fonts-cache')}</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    renameSync(work, target);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    // Another worker renamed its copy first: that one is complete.
    if (existsSync(join(target, 'chromium'))) return target;
    throw error;
  }
  return target;
}

/** Extracts the regular files and folders of a ustar archive (all the package's archives hold). */
function untar(archive: Buffer, into: string): void {
  const text = (from: number, length: number) =>
    archive
      .subarray(from, from + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= archive.length; ) {
    if (archive[at] === 0) break;
    const prefix = text(at + 345, 155);
    const name = normalize(prefix ? `${prefix}/${text(at, 100)}` : text(at, 100));
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(archive[at + 156] || 48);
    if (name.startsWith('..') || name.startsWith('/')) throw new Error(`unsafe path in archive: ${name}`);
    const path = join(into, name);
    if (type === '5') mkdirSync(path, { recursive: true });
    else if (type === '0') {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, archive.subarray(at + 512, at + 512 + size));
    } else if (type !== 'x' && type !== 'g') throw new Error(`unexpected entry type ${type} for ${name}`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
}
