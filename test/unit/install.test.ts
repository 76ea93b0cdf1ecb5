import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const readme = readFileSync('README.md', 'utf8');

describe('npm ci on a machine with Node 20 and Java', () => {
  it('reviews every install script in allowScripts, and allows the one that installs Node 22', () => {
    // npm 12 skips the install scripts allowScripts does not list (npm 11 warns): node@22's
    // preinstall is what puts Node 22 in node_modules/.bin.
    const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([path, entry]) => path && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts).toContain('node');
    for (const name of withScripts) expect(pkg.allowScripts, name).toHaveProperty([name]);
    expect(pkg.allowScripts.node).toBe(true);
  });

  it('asks the machine for the Node that npm needs, as the README says, and runs on Node 22', () => {
    expect(pkg.devEngines.runtime).toEqual({ name: 'node', version: '>=20.17.0', onFail: 'error' });
    expect(readme).toContain('Needs Node.js 20.17 or newer (to run npm) and Java 17+');
    expect(readme).toContain('`EBADENGINE`');
    expect(readme).not.toMatch(/any recent (Node|version)/);
    // The engines the code itself needs: the Node the tests run on (npm put node@22 first on the PATH).
    expect(pkg.engines.node).toBe('>=22.12');
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
    expect(readFileSync('.npmrc', 'utf8')).toMatch(/^engine-strict=false$/m);
  });
});
