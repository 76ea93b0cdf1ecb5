import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { httpGroups } from '#infra/routes';
import { buildOpenApi } from '#shared/http/openapi';
import { loadSchemas } from '#shared/http/responses';
import { RELEASE } from '#shared/release';

/**
 * `npm run openapi`: writes docs/openapi.json from the route rows. The docs function serves that
 * file, and test/unit/openapi.test.ts fails when it differs from a fresh build.
 */
export const OPENAPI_FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

export async function openApiText(): Promise<string> {
  await loadSchemas(httpGroups);
  const document = buildOpenApi(httpGroups, {
    title: 'Payment Service API',
    version: RELEASE,
    description:
      'Products, customers, transactions, charges and webhooks of the payment service. Amounts are ' +
      'decimal Reais (at most 2 decimal places); errors answer `{statusCode, message, code, timestamp, path}`.',
  });
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(OPENAPI_FILE, await openApiText());
  process.stderr.write(`openapi: wrote ${OPENAPI_FILE}\n`);
}
