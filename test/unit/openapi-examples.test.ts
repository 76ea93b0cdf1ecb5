import { isDeepStrictEqual } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { httpGroups } from '#infra/routes';
import { SAVED_CARD_LATER_DECLINES } from '#shared/adapters/sandbox-gateway/saved-cards';
import { SANDBOX_CARDS } from '#shared/domain/payments/cards';
import { type ExampleBook, type Scenario, scenariosOf } from '#shared/http/examples';
import { declaredRequest, declaredResponse } from '#shared/http/responses';
import type { Route } from '#shared/http/types';
import { loadExamples, openApiText } from '../../scripts/openapi';

type Json = Record<string, any>;

const routes = httpGroups.flatMap((group) => group.routes);
const nameOf = (route: Route) => `${route.operationId} (${route.method} ${route.path})`;
const templated = (route: Route) => [...route.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]);
const jsonAnswers = (route: Route) =>
  Object.keys(route.responses)
    .map(Number)
    .filter((status) => {
      const answer = declaredResponse(route, status);
      return answer !== null && answer !== undefined && '_zod' in answer;
    });

/** A body with fields to show (an empty `{}` body needs no example). */
const hasFields = (route: Route) => {
  const body = declaredRequest(route, 'body');
  if (!body) return false;
  const shape = (body._zod.def as { shape?: object }).shape;
  return shape === undefined || Object.keys(shape).length > 0;
};

let book: ExampleBook;
let document: Json;
beforeAll(async () => {
  book = await loadExamples(httpGroups);
  document = JSON.parse(await openApiText());
});

/** Every example part of every operation, with the route it belongs to. */
function* parts(): Generator<{ route: Route; call: Scenario; part: string; value: unknown }> {
  for (const route of routes) {
    for (const call of scenariosOf(book[route.operationId])) {
      for (const part of ['path', 'query', 'body'] as const)
        if (call[part] !== undefined) yield { route, call, part, value: call[part] };
      for (const [status, value] of Object.entries(call.responses ?? {}))
        yield { route, call, part: status, value };
    }
  }
}

const where = (route: Route, call: Scenario, part: string) =>
  `${nameOf(route)}${call.name ? ` [${call.name}]` : ''} ${/^\d+$/.test(part) ? `${part} answer` : part}`;

describe('the examples of the API reference', () => {
  it('cover every operation: each path parameter, its body and each JSON answer', () => {
    const missing: string[] = [];
    for (const route of routes) {
      const calls = scenariosOf(book[route.operationId]);
      const lacking = [
        ...templated(route)
          .filter((name) => !calls.some((call) => (call.path as Json | undefined)?.[name] !== undefined))
          .map((name) => `path parameter ${name}`),
        ...(hasFields(route) && !calls.some((call) => call.body !== undefined) ? ['body'] : []),
        ...jsonAnswers(route)
          .filter(
            (status) => !calls.some((call) => (call.responses as Json | undefined)?.[status] !== undefined),
          )
          .map((status) => `${status} answer`),
      ];
      if (lacking.length) missing.push(`${nameOf(route)} has no example of its ${lacking.join(', ')}`);
    }
    expect(missing, 'add them to functions/<group>/examples.ts').toEqual([]);
  });

  it('name no operation the routes lack, and no part or answer the route lacks', () => {
    const known = new Map(routes.map((route) => [route.operationId, route]));
    const stray = Object.keys(book).filter((id) => !known.has(id));
    for (const { route, call, part } of parts()) {
      if (part === 'path' || part === 'query' || part === 'body') {
        if (part !== 'path' && !route.request?.[part]) stray.push(where(route, call, part));
      } else if (!(part in route.responses)) stray.push(where(route, call, part));
    }
    for (const route of routes) {
      const calls = scenariosOf(book[route.operationId]);
      if (calls.length > 1 && calls.some((call) => !call.name || !call.summary))
        stray.push(`${nameOf(route)}: several calls each need a name and a summary`);
    }
    expect(stray).toEqual([]);
  });

  it("validate against the route's zod schemas, as the pipeline and the answer check parse them", () => {
    const failures: string[] = [];
    for (const { route, call, part, value } of parts()) {
      const schema = (
        /^\d+$/.test(part)
          ? declaredResponse(route, Number(part))
          : declaredRequest(route, part as 'path' | 'query' | 'body')
      ) as z.ZodType | undefined;
      if (!schema || !('_zod' in schema)) continue;
      const result = schema.safeParse(value);
      if (!result.success)
        failures.push(
          `${where(route, call, part)}: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
        );
    }
    expect(failures).toEqual([]);
  });

  it('validate against the JSON Schemas the document shows, and appear in it', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: document.components });
    const compiled = new Map<Json, ReturnType<typeof ajv.compile>>();
    const check = (schema: Json, value: unknown) => {
      let validate = compiled.get(schema);
      if (!validate) {
        const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/');
        validate = ajv.compile(JSON.parse(text));
        compiled.set(schema, validate);
      }
      return validate(value) ? '' : ajv.errorsText(validate.errors);
    };
    const failures: string[] = [];
    for (const { route, call, part, value } of parts()) {
      const operation =
        document.paths[route.path.replace(/\{(\w+)\+\}/g, '{$1}')][route.method.toLowerCase()];
      const media = (content: Json | undefined) => content?.['application/json'];
      if (part === 'path' || part === 'query') {
        for (const [name, item] of Object.entries(value as Json)) {
          const parameter = operation.parameters?.find((p: Json) => p.in === part && p.name === name);
          const at = `${where(route, call, part)} ${name}`;
          if (!parameter) {
            failures.push(`${at}: the document has no such parameter`);
            continue;
          }
          const error = check(parameter.schema, item);
          if (error) failures.push(`${at}: ${error}`);
          const inDocument = parameter.examples?.[call.name ?? '']?.value ?? parameter.example;
          if (!isDeepStrictEqual(inDocument, item))
            failures.push(`${at}: the document does not show this example`);
        }
        continue;
      }
      // A JSON part, or the one media type of a page or a file.
      const answered = operation.responses[part]?.content;
      const content =
        part === 'body'
          ? media(operation.requestBody?.content)
          : (media(answered) ?? Object.values(answered ?? {})[0]);
      if (!content) {
        failures.push(`${where(route, call, part)}: the document shows no answer there`);
        continue;
      }
      const error = check(content.schema, value);
      if (error) failures.push(`${where(route, call, part)}: ${error}`);
      const inDocument = call.name && content.examples ? content.examples[call.name]?.value : content.example;
      if (!isDeepStrictEqual(inDocument, value))
        failures.push(`${where(route, call, part)}: the document does not show this example`);
    }
    expect(failures).toEqual([]);
  });

  it('show each refusal under a status the operation documents, as the error mapper writes it', () => {
    const failures: string[] = [];
    for (const route of routes) {
      const operation =
        document.paths[route.path.replace(/\{(\w+)\+\}/g, '{$1}')][route.method.toLowerCase()];
      for (const call of scenariosOf(book[route.operationId])) {
        for (const [status, error] of Object.entries(call.errors ?? {})) {
          const at = where(route, call, status);
          const media = operation.responses[status]?.content?.['application/json'];
          if (!media) failures.push(`${at}: the operation does not document ${status}`);
          else if (error.statusCode !== Number(status))
            failures.push(`${at}: the error is a ${error.statusCode}`);
          else {
            const shown = call.name ? media.examples?.[call.name]?.value : media.example;
            if (
              shown?.message !== error.message &&
              JSON.stringify(shown?.message) !== JSON.stringify(error.messages)
            )
              failures.push(`${at}: the document shows ${JSON.stringify(shown)}`);
            if (shown?.code !== error.code) failures.push(`${at}: code ${shown?.code}, not ${error.code}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('use the sandbox test cards and real dates, never generated placeholders', () => {
    const cards = new Set([...Object.keys(SANDBOX_CARDS), ...Object.keys(SAVED_CARD_LATER_DECLINES)]);
    const problems: string[] = [];
    const walk = (value: unknown, at: string, key = ''): void => {
      if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) walk(item, `${at}[${i}]`);
      } else if (typeof value === 'object' && value !== null) {
        const record = value as Json;
        if (key === 'card' && typeof record.number === 'string' && !cards.has(record.number))
          problems.push(`${at}: ${record.number} is not a sandbox test card`);
        for (const [inner, item] of Object.entries(record)) walk(item, `${at}.${inner}`, inner);
      } else if (typeof value === 'string') {
        if (key === 'cardNumber' && !cards.has(value))
          problems.push(`${at}: ${value} is not a sandbox test card`);
        if (/^(string|additionalProp\d*|example)$/i.test(value))
          problems.push(`${at}: placeholder "${value}"`);
        const year = /^(\d{4})-\d{2}-\d{2}/.exec(value)?.[1];
        if (year && (Number(year) < 2026 || Number(year) > 2036))
          problems.push(`${at}: the year of ${value}`);
      } else if (typeof value === 'number' && key === 'expiryYear' && (value < 2026 || value > 2040)) {
        problems.push(`${at}: expiry year ${value}`);
      }
    };
    for (const { route, call, part, value } of parts()) walk(value, where(route, call, part));
    expect(problems).toEqual([]);
  });
});
