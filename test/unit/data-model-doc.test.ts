import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DataStore } from '#infra/constructs/data';
import { STAGES } from '#infra/stages';
import { ENTITY_DEFINITIONS } from '#shared/adapters/dynamodb/entities/index';
import { TABLE } from '#shared/adapters/dynamodb/table-definition';
import { withIndexSection } from '../../scripts/data-model';

/**
 * docs/data-model.md against the code: its index section is the one generated from the entity
 * definitions, the indexes the deployed table has (the CDK construct, which DynamoDB Local's
 * CreateTable shares through TABLE) are the ones the entities' access patterns reach, how many the
 * document says there are, and every `entity` the adapters write.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const doc = readFileSync(join(ROOT, 'docs/data-model.md'), 'utf8');

interface Gsi {
  IndexName: string;
  KeySchema: { AttributeName: string; KeyType: string }[];
}

function deployedIndexes(): Gsi[] {
  const stack = new Stack(new App(), 'DataModelDoc');
  new DataStore(stack, 'Data', STAGES.prod);
  const tables = Object.values(Template.fromStack(stack).findResources('AWS::DynamoDB::Table'));
  expect(tables).toHaveLength(1);
  return tables[0].Properties.GlobalSecondaryIndexes as Gsi[];
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** The count the prose states: "six global secondary indexes" (or a digit). */
function statedIndexCount(markdown: string): number {
  const match = markdown.match(/\b(\w+) global secondary indexes\b/);
  if (!match) throw new Error('docs/data-model.md does not say how many global secondary indexes there are');
  const word = match[1].toLowerCase();
  return /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word);
}

/** The rows of the table that starts at `heading`'s section, as cells. */
function tableRows(markdown: string, heading: string): string[][] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/data-model.md has no "## ${heading}"`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

/** The entity names the adapters write: `entity: 'x'`, `const X_ENTITY = 'x'`, `':entity': 'x'`. */
function writtenEntities(): Map<string, string> {
  const patterns = [
    /\b(?:const|let)\s+[A-Z_]*(?:ENTITY|COUNTER)[A-Z_]*\s*=\s*'([a-z][a-z0-9-]*)'/g,
    /\bentity:\s*'([a-z][a-z0-9-]*)'/g,
    /':(?:entity|e)':\s*'([a-z][a-z0-9-]*)'/g,
    /\boutboxEntity:\s*'([a-z][a-z0-9-]*)'/g,
  ];
  const found = new Map<string, string>();
  const folder = join(ROOT, 'shared/adapters');
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(join(folder, file), 'utf8');
    for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.set(m[1], file);
  }
  return found;
}

/** The entity names in the first column of "## Entities": the leading `name` of each row. */
function documentedEntities(markdown: string): Set<string> {
  return new Set(
    tableRows(markdown, 'Entities')
      .map((cells) => cells[0].match(/^`([a-z][a-z0-9-]*)`/)?.[1])
      .filter((name): name is string => name !== undefined),
  );
}

describe('docs/data-model.md', () => {
  const indexes = deployedIndexes();

  it('states the number of global secondary indexes the table defines', () => {
    expect(indexes.length).toBeGreaterThan(0);
    expect(statedIndexCount(doc)).toBe(indexes.length);
  });

  it('holds the index section generated from the entity definitions (run `npm run data-model`)', () => {
    expect(doc).toBe(withIndexSection(doc));
  });

  it('reaches every deployed index through some entity access pattern, and no other index', () => {
    const reached = new Set(ENTITY_DEFINITIONS.flatMap((e) => Object.values(e.patterns).map((p) => p.name)));
    expect([...reached].sort()).toEqual(indexes.map((i) => i.IndexName).sort());
    for (const index of indexes) {
      const physical = Object.values(TABLE.indexes).find((i) => i.name === index.IndexName);
      expect(index.KeySchema.map((k) => k.AttributeName)).toEqual([
        physical?.partitionKey,
        physical?.sortKey,
      ]);
    }
  });

  it('names each access pattern once, after its entity', () => {
    const names = ENTITY_DEFINITIONS.flatMap((e) => Object.values(e.patterns).map((p) => p.pattern));
    expect(new Set(names).size).toBe(names.length);
    for (const e of ENTITY_DEFINITIONS)
      for (const p of Object.values(e.patterns)) expect(p.pattern.startsWith(`${e.entity}.`)).toBe(true);
  });

  it('leaves the physical indexes to the entity definitions: no repository names one itself', () => {
    // The table (keys, definition, cursors) and the entity definitions name physical indexes.
    const allowed = (file: string) =>
      /^dynamodb[\\/](keys|table-definition|cursor)\.ts$|^dynamodb[\\/]entities[\\/]/.test(file);
    const folder = join(ROOT, 'shared/adapters');
    const offenders: string[] = [];
    for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || allowed(file)) continue;
      const text = readFileSync(join(folder, file), 'utf8');
      if (/\bTABLE\.indexes\b|\bINDEXES\b|'gsi[1-9]'/.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });

  it('documents every entity the adapters write, and none they do not', () => {
    const written = writtenEntities();
    // Dozens of kinds are written; a handful would mean the scan lost a pattern.
    expect(written.size).toBeGreaterThan(40);
    const documented = documentedEntities(doc);
    const undocumented = [...written]
      .filter(([name]) => !documented.has(name))
      .map(([n, f]) => `${n} (${f})`);
    expect(undocumented).toEqual([]);
    expect([...documented].filter((name) => !written.has(name))).toEqual([]);
  });
});
