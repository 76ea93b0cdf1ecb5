import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { httpGroups } from '#infra/routes';
import { SAVED_CARD_LATER_DECLINES } from '#shared/adapters/sandbox-gateway/saved-cards';
import { SANDBOX_CARDS } from '#shared/domain/payments/cards';
import type { ExampleBook } from '#shared/http/examples';
import { buildOpenApi } from '#shared/http/openapi';
import type { RouteGroup } from '#shared/http/types';
import { RELEASE } from '#shared/release';

/**
 * `npm run openapi`: writes docs/openapi.json from the route rows, their examples and
 * docs/getting-started.md. The docs function serves that file, and test/unit/openapi.test.ts fails
 * when it differs from a fresh build.
 */
export const OPENAPI_FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const GETTING_STARTED = new URL('../docs/getting-started.md', import.meta.url);
const TEST_CARDS_MARK = '<!-- test cards -->';

/**
 * Each group's examples, from `functions/<group>/examples.ts` beside its route rows (the group's
 * folder is its name). A group without that file has none, which the examples test reports.
 */
export async function loadExamples(groups: readonly RouteGroup[]): Promise<ExampleBook> {
  const books = await Promise.all(
    groups.map(async (group) => {
      const file = new URL(`../functions/${group.name}/examples.ts`, import.meta.url);
      if (!existsSync(file)) return {};
      return ((await import(file.href)) as { examples: ExampleBook }).examples;
    }),
  );
  return Object.assign({}, ...books);
}

/** As printed on the card: 4-4-4-4, or 4-6-5 for a 15-digit Amex. */
const spaced = (number: string) =>
  number.length === 15
    ? `${number.slice(0, 4)} ${number.slice(4, 10)} ${number.slice(10)}`
    : number.replace(/(\d{4})(?=\d)/g, '$1 ');

/** The sandbox's own card table, so that the reference never lists a card the sandbox does not know. */
function testCardsTable(): string {
  const rows = Object.entries(SANDBOX_CARDS).map(([number, card]) => {
    const outcome =
      card.outcome === 'approved'
        ? 'approved'
        : `${card.outcome === 'error' ? 'technical error' : 'declined'}: \`${card.failureCode}\``;
    return `| \`${spaced(number)}\` | ${outcome} |`;
  });
  const later = Object.entries(SAVED_CARD_LATER_DECLINES).map(
    ([number, code]) =>
      `| \`${spaced(number)}\` | approved; saved with \`saveCard\`, later charges declined: \`${code}\` |`,
  );
  return ['| Card number | Outcome |', '|---|---|', ...rows, ...later].join('\n');
}

/** The document's description: the getting-started page with the sandbox's test cards filled in. */
export function gettingStarted(): string {
  const text = readFileSync(GETTING_STARTED, 'utf8');
  if (!text.includes(TEST_CARDS_MARK)) throw new Error(`docs/getting-started.md lacks ${TEST_CARDS_MARK}`);
  return text.replace(TEST_CARDS_MARK, testCardsTable()).trim();
}

export async function openApiText(): Promise<string> {
  const document = buildOpenApi(
    httpGroups,
    { title: 'Payment Service API', version: RELEASE, description: gettingStarted() },
    await loadExamples(httpGroups),
  );
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(OPENAPI_FILE, await openApiText());
  process.stderr.write(`openapi: wrote ${OPENAPI_FILE}\n`);
}
