import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LocalIssuer } from './jwt-issuer';

/** `npm run dev-token -- <sellerId>`: a dashboard JWT signed by the local issuer of the data folder. */
async function main() {
  const sellerId = Number(process.argv[2]);
  if (!Number.isSafeInteger(sellerId) || sellerId <= 0) {
    console.error('usage: npm run dev-token -- <sellerId>   (a positive integer)');
    process.exit(2);
  }
  const dataDir = resolve(process.env.LOCAL_DATA_DIR ?? '.local');
  if (!existsSync(join(dataDir, 'jwt-keys.json'))) {
    console.error(
      `no local issuer keys in ${dataDir}: run \`npm start\` once first (LOCAL_DATA_DIR selects the folder)`,
    );
    process.exit(1);
  }
  const issuer = await LocalIssuer.open(dataDir);
  console.log(await issuer.sign(sellerId));
}

void main();
