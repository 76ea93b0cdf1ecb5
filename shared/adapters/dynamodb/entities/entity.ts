/**
 * One entity of the single table, defined once: its `entity` name and `version`, its key, its access
 * patterns (named for the entity, each on one generic physical index), and its item ↔ domain
 * mapping. Repositories build items, index attributes and queries from these definitions and write
 * no mapping of their own; docs/data-model.md's index table is generated from them
 * (`npm run data-model`).
 */
import { INDEXES, type Key, type PhysicalIndex } from '../keys';
import type { Item } from '../table';

/** Where an item sits on one access pattern: its index partition and sort values. */
export interface IndexPlace {
  pk: string;
  sk: string;
}

export interface PatternSpec<D> {
  /** The physical index the pattern reads (`gsi1` … `gsi6`). */
  index: PhysicalIndex;
  /** The pattern's partition / sort values and what it answers, for docs/data-model.md. */
  doc: string;
  /**
   * The item's place on the pattern, written by `toItem` (null: not on it now, e.g. nothing due).
   * Absent when the pattern's attributes are written by an update expression of the repository.
   */
  at?: (d: D) => IndexPlace | null;
}

/**
 * An access pattern as a query names it: the physical index and its key attributes, with the
 * pattern's own name (`transaction.byGatewayPayId`).
 */
export interface AccessPattern {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  readonly pattern: string;
  readonly doc: string;
}

/** `D` is what an item is written from; `R` what it reads back as (`D` unless the item holds less). */
export interface EntitySpec<D, P extends Record<string, PatternSpec<D>>, R = D> {
  entity: string;
  /**
   * The item's `version` when it is the schema version of its shape; absent when `version` is the
   * domain object's optimistic lock (then `attributes` writes it).
   */
  version?: number;
  key: (d: D) => Key;
  patterns: P;
  /** The item's data attributes (everything but the key, index attributes, `entity` and `version`). */
  attributes: (d: D) => Item;
  fromItem: (item: Item) => R;
}

export interface Entity<D, P extends Record<string, PatternSpec<D>>, R = D> {
  readonly entity: string;
  readonly version: number | 'optimistic';
  readonly key: (d: D) => Key;
  readonly patterns: { readonly [K in keyof P]: AccessPattern };
  /** The index attributes of the patterns `d` is on (those with `at`). */
  indexAttributes(d: D): Item;
  /** The whole item: key, index attributes, `entity`, `version` and data attributes. */
  toItem(d: D): Item;
  fromItem(item: Item): R;
}

export function defineEntity<D, const P extends Record<string, PatternSpec<D>>, R = D>(
  spec: EntitySpec<D, P, R>,
): Entity<D, P, R> {
  const used = new Set<PhysicalIndex>();
  const patterns: Record<string, AccessPattern> = {};
  for (const [name, p] of Object.entries(spec.patterns)) {
    // One item has one pair of attributes per index, so an entity reaches each index once.
    if (used.has(p.index)) throw new Error(`${spec.entity}: two patterns on ${p.index}`);
    used.add(p.index);
    const physical = INDEXES[p.index];
    patterns[name] = {
      name: physical.name,
      partitionKey: physical.partitionKey,
      sortKey: physical.sortKey,
      pattern: `${spec.entity}.${name}`,
      doc: p.doc,
    };
  }
  const placed = Object.values(spec.patterns).filter((p) => p.at);
  const indexAttributes = (d: D): Item => {
    const item: Item = {};
    for (const p of placed) {
      const place = p.at?.(d);
      if (!place) continue;
      item[INDEXES[p.index].partitionKey] = place.pk;
      item[INDEXES[p.index].sortKey] = place.sk;
    }
    return item;
  };
  const entity: Entity<D, P, R> = {
    entity: spec.entity,
    version: spec.version ?? 'optimistic',
    key: spec.key,
    patterns: patterns as { [K in keyof P]: AccessPattern },
    indexAttributes,
    toItem: (d) => ({
      ...spec.key(d),
      ...indexAttributes(d),
      entity: spec.entity,
      ...(spec.version === undefined ? {} : { version: spec.version }),
      ...spec.attributes(d),
    }),
    fromItem: spec.fromItem,
  };
  return entity;
}
