import * as z from 'zod';
import { documentedShapeOf } from '#shared/validation';

/**
 * zod to the JSON Schemas of an OpenAPI 3.1 document: one conversion per request or response
 * schema (zod 4's own `z.toJSONSchema`, draft 2020-12), with the definitions it emits lifted to
 * `components.schemas`.
 */

export type Json = Record<string, any>;
export type Io = 'input' | 'output';

/**
 * zod bounds every `.int()` by ±(2^53 - 1), which says no more than `type: integer` and makes
 * renderers show -9007199254740991 as the example id. Bounds a schema sets itself stay.
 */
function dropSafeIntegerBounds({ jsonSchema }: { jsonSchema: Json }) {
  if (jsonSchema.type !== 'integer') return;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

/** zod's conversion as this document makes it, for one side (what we accept or what we answer). */
const toJson = (schema: z.ZodType, io: Io): Json =>
  z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: (ctx) => {
      dropSafeIntegerBounds(ctx);
      showDocumentedShape(ctx, io);
    },
  }) as Json;

/** A field marked with documentedAs is shown as the schema it names (shared/validation.ts). */
function showDocumentedShape({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: Json }, io: Io) {
  const shown = documentedShapeOf(zodSchema as z.ZodType);
  if (!shown) return;
  const { $schema: _, $defs, ...json } = toJson(shown, io);
  if ($defs) throw new Error('a documented shape must not contain schemas named with .meta({ id })');
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, json);
}

export const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Every `$ref` inside a JSON Schema, rewritten in place. */
function rewriteRefs(json: unknown, rename: (ref: string) => string): void {
  if (Array.isArray(json)) for (const item of json) rewriteRefs(item, rename);
  else if (typeof json === 'object' && json !== null) {
    for (const [key, value] of Object.entries(json)) {
      if (key === '$ref' && typeof value === 'string') (json as Json).$ref = rename(value);
      else rewriteRefs(value, rename);
    }
  }
}

const DEF_PREFIX = '#/$defs/';

/**
 * zod schemas to JSON Schema, with every schema named by `.meta({ id })` lifted to one component.
 * A schema whose input and output shapes differ (defaults, transforms, unknown keys stripped on
 * input) gets two components: `<id>` for what we answer and `<id>Input` for what we accept.
 */
export function createSchemaBook(reserved: string[]) {
  const defs: Record<Io, Map<string, Json>> = { input: new Map(), output: new Map() };
  const converted: { json: Json; io: Io }[] = [];

  function remember(io: Io, id: string, def: Json) {
    const known = defs[io].get(id);
    if (known && JSON.stringify(known) !== JSON.stringify(def))
      throw new Error(`two different schemas carry the id "${id}"`);
    if (reserved.includes(id)) throw new Error(`the schema id "${id}" is reserved`);
    if (!known) defs[io].set(id, def);
  }

  /** `context` names the anonymous definitions zod makes for recursive schemas (`__schema0`). */
  function convert(schema: z.ZodType, io: Io, context: string): Json {
    const { $schema: _, $defs = {}, ...json } = toJson(schema, io);
    const local = (name: string) => (name.startsWith('__') ? `${context}_${name.slice(2)}` : name);
    const toLocal = (ref: string) =>
      ref.startsWith(DEF_PREFIX) ? DEF_PREFIX + local(ref.slice(DEF_PREFIX.length)) : ref;
    rewriteRefs(json, toLocal);
    for (const [name, def] of Object.entries($defs as Record<string, Json>)) {
      rewriteRefs(def, toLocal);
      remember(io, local(name), def);
    }
    return track(json, io);
  }

  /** A schema (or a copy of a part of one) whose `$ref`s `finish` points at components. */
  function track(json: Json, io: Io): Json {
    converted.push({ json, io });
    return json;
  }

  /** The object schema behind a top-level `$ref` (a query or path object named with an id). */
  function resolve(json: Json, io: Io): Json {
    const ref: unknown = json.$ref;
    if (typeof ref !== 'string' || !ref.startsWith(DEF_PREFIX)) return json;
    return defs[io].get(ref.slice(DEF_PREFIX.length)) ?? json;
  }

  /** A schema with its `$ref`s followed (a definition of either side, before `finish`). */
  function follow(json: Json, io: Io): Json {
    let current = json;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
      const ref: string = current.$ref;
      const found = ref.startsWith(DEF_PREFIX) ? defs[io].get(ref.slice(DEF_PREFIX.length)) : undefined;
      if (!found) break;
      current = found;
    }
    return current;
  }

  const refsOf = (def: Json | undefined): string[] => {
    const found: string[] = [];
    rewriteRefs(def, (ref) => {
      if (ref.startsWith(DEF_PREFIX)) found.push(ref.slice(DEF_PREFIX.length));
      return ref;
    });
    return found;
  };

  /** Names every definition, points every `$ref` at its component and answers the components. */
  function finish(): Record<string, Json> {
    const split = new Set<string>();
    for (const [id, input] of defs.input) {
      const output = defs.output.get(id);
      if (output && JSON.stringify(output) !== JSON.stringify(input)) split.add(id);
    }
    // A definition whose text is the same on both sides still differs if it refers to one that does.
    for (let grew = true; grew; ) {
      grew = false;
      for (const [id, input] of defs.input) {
        if (split.has(id) || !defs.output.has(id)) continue;
        if (refsOf(input).some((ref) => split.has(ref))) {
          split.add(id);
          grew = true;
        }
      }
    }
    const nameOf = (id: string, io: Io) => (io === 'input' && split.has(id) ? `${id}Input` : id);
    const components: Record<string, Json> = {};
    for (const io of ['output', 'input'] as const) {
      for (const [id, def] of defs[io]) {
        const name = nameOf(id, io);
        if (io === 'output' || split.has(id) || !defs.output.has(id)) {
          if (io === 'input' && split.has(id) && (defs.output.has(name) || defs.input.has(name)))
            throw new Error(`the schema id "${name}" clashes with the input shape of "${id}"`);
          components[name] = def;
        }
      }
    }
    const pointAt = (io: Io) => (ref: string) =>
      ref.startsWith(DEF_PREFIX) ? refTo(nameOf(ref.slice(DEF_PREFIX.length), io)).$ref : ref;
    for (const io of ['output', 'input'] as const) {
      for (const [id, def] of defs[io]) if (components[nameOf(id, io)] === def) rewriteRefs(def, pointAt(io));
    }
    for (const { json, io } of converted) rewriteRefs(json, pointAt(io));
    return Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)));
  }

  return { convert, resolve, track, follow, finish };
}

export type SchemaBook = ReturnType<typeof createSchemaBook>;
