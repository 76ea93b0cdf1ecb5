import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Code, tests, scripts and the other docs cite decision records by title: `docs/decisions.md,
 * "Customer identity"`, `decisions.md ("Paid" and "Actions")`, `decisions: "Reactivation"`. Each
 * cited title must be a heading of docs/decisions.md, so a record renamed or dropped in a rewrite
 * fails here instead of leaving comments that point nowhere.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SKIPPED_FOLDERS = new Set(['node_modules', 'cdk.out', 'dist', 'coverage']);
const SOURCE = /\.(ts|tsx|mjs|md)$/;
/** The documents cited by heading, each with the word a citation starts with. */
const CITED_DOCS = [
  { path: 'docs/decisions.md', word: 'decisions' },
  { path: 'docs/state-machines.md', word: 'state-machines' },
] as const;
/** This file's own examples are not citations. */
const SELF = relative(ROOT, import.meta.filename);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

/**
 * A comment's lines joined into one (a cited title may wrap): each line break with the next line's
 * indentation and comment marker (` * `, `//`) becomes one space.
 */
function joinCommentLines(text: string): string {
  return text.replace(/\s*\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');
}

/** The titles a text cites: quoted strings right after `<word>` / `<word>.md`, joined by `,` or `and`. */
function citedTitles(text: string, word = 'decisions'): string[] {
  const citation = new RegExp(
    `${word}(?:\\.md)?\\s*[,:]?\\s*\\(?\\s*("[^"]{1,120}"(?:\\s*(?:,|and)\\s*"[^"]{1,120}")*)`,
    'g',
  );
  const titles: string[] = [];
  for (const match of joinCommentLines(text).matchAll(citation)) {
    for (const quoted of match[1].matchAll(/"([^"]+)"/g)) titles.push(quoted[1]);
  }
  return titles;
}

/** Every heading's text (any level), as written after the `#`s. */
function headingsOf(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)].map((m) => m[1]));
}

function citations(doc: (typeof CITED_DOCS)[number]): Map<string, string[]> {
  const byTitle = new Map<string, string[]>();
  for (const file of sourceFiles(ROOT)) {
    const path = relative(ROOT, file);
    if (path === doc.path || path === SELF || path.startsWith('docs/decisions-incoming/')) continue;
    for (const title of citedTitles(readFileSync(file, 'utf8'), doc.word)) {
      byTitle.set(title, [...(byTitle.get(title) ?? []), path]);
    }
  }
  return byTitle;
}

describe('decision records cited from the code', () => {
  it('reads the citation forms the code uses, across wrapped comment lines', () => {
    expect(citedTitles('(docs/decisions.md, "Customer identity")')).toEqual(['Customer identity']);
    expect(citedTitles('docs/decisions.md ("Installment plans (issue 14)") is')).toEqual([
      'Installment plans (issue 14)',
    ]);
    expect(citedTitles('(docs/decisions.md, "Paid" and "Actions"): by')).toEqual(['Paid', 'Actions']);
    expect(citedTitles('guard (decisions: "Identical plans"): holds')).toEqual(['Identical plans']);
    expect(citedTitles(' * rules (docs/decisions.md, "Scheduled charges\n * (issue 13)"): cycle')).toEqual([
      'Scheduled charges (issue 13)',
    ]);
    expect(
      citedTitles('  // (docs/decisions.md, "Security review (issue 31): card\n  // testing").'),
    ).toEqual(['Security review (issue 31): card testing']);
    expect(citedTitles('docs/decisions.md has the numbers.')).toEqual([]);
    expect(citedTitles('(docs/state-machines.md, "Statuses")', 'state-machines')).toEqual(['Statuses']);
  });

  it.each(CITED_DOCS)('finds a heading of $path for every title the sources cite', (doc) => {
    const headings = headingsOf(readFileSync(join(ROOT, doc.path), 'utf8'));
    const cited = citations(doc);
    // The sources cite these documents many times; an empty map would mean the scan itself broke.
    expect(cited.size).toBeGreaterThan(doc.word === 'decisions' ? 20 : 1);
    const missing = [...cited]
      .filter(([title]) => !headings.has(title))
      .map(([title, files]) => `"${title}" (cited by ${[...new Set(files)].join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('cites no decision record still waiting in docs/decisions-incoming/ (folded records are cited by heading)', () => {
    const waiting = [...sourceFiles(ROOT)]
      .map((file) => relative(ROOT, file))
      .filter((path) => path !== SELF && !path.startsWith('docs/decisions-incoming/'))
      .filter((path) => readFileSync(join(ROOT, path), 'utf8').includes('decisions-incoming/'));
    expect(waiting).toEqual([]);
  });
});
