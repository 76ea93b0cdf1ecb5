import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildOpenApi } from '#shared/http/openapi';
import { declaredRequest, declaredResponse, loadSchemas, resolveSchema } from '#shared/http/responses';
import { defineRoutes, lazySchemas, type RouteResponses } from '#shared/http/types';

const Thing = z.object({ id: z.number(), name: z.string() }).meta({ id: 'Thing' });
const info = { title: 'Test API', version: '1.0.0' };

const row = (operationId: string, responses: RouteResponses) =>
  ({
    operationId,
    method: 'GET',
    path: `/api/${operationId}`,
    auth: [],
    summary: 'A thing',
    responses,
  }) as const;

describe('lazy response schemas', () => {
  it('imports the module only when loadSchemas asks, once for every name it exports', async () => {
    let imports = 0;
    const r = lazySchemas(async () => {
      imports += 1;
      return { thingResponse: Thing, otherResponse: z.object({ n: z.number() }) };
    });
    const group = defineRoutes('things', [
      row('getThing', { 200: r.thingResponse }),
      row('getOther', { 200: r.otherResponse, 204: null }),
    ]);
    expect(imports).toBe(0);
    expect(r.thingResponse).toBe(r.thingResponse);
    expect(() => declaredResponse(group.routes[0], 200)).toThrow(/getThing 200: response schema not loaded/);
    await loadSchemas([group]);
    expect(imports).toBe(1);
    expect(declaredResponse(group.routes[0], 200)).toBe(Thing);
    expect(declaredResponse(group.routes[1], 204)).toBeNull();
    expect(declaredResponse(group.routes[1], 404)).toBeUndefined();
  });

  it('gives the same OpenAPI document as the schema itself', async () => {
    const r = lazySchemas(async () => ({ thingResponse: Thing }));
    const lazy = defineRoutes('things', [row('getThing', { 200: r.thingResponse })]);
    const eager = defineRoutes('things', [row('getThing', { 200: Thing })]);
    await loadSchemas([lazy]);
    expect(buildOpenApi([lazy], info)).toEqual(buildOpenApi([eager], info));
  });

  it('fails loading when the module does not export the name', async () => {
    const r = lazySchemas(async () => ({ thingResponse: Thing }) as Record<string, z.ZodType>);
    const group = defineRoutes('things', [row('getMissing', { 200: r.missingResponse })]);
    await expect(loadSchemas([group])).rejects.toThrow('no schema missingResponse in its module');
  });
});

describe('lazy request schemas', () => {
  const Body = z.object({ name: z.string() });
  const Query = z.object({ page: z.coerce.number().optional() });

  it('are imported by the first request that needs them (resolveSchema), once, and kept', async () => {
    let imports = 0;
    const r = lazySchemas(async () => {
      imports += 1;
      return { bodySchema: Body, querySchema: Query };
    });
    expect(imports).toBe(0);
    expect(await resolveSchema(r.bodySchema)).toBe(Body);
    expect(await resolveSchema(r.querySchema)).toBe(Query);
    expect(await resolveSchema(Body)).toBe(Body);
    expect(imports).toBe(1);
  });

  it('are loaded with the responses by loadSchemas for the readers of the route table', async () => {
    const r = lazySchemas(async () => ({ bodySchema: Body, querySchema: Query }));
    const route = {
      ...row('postThing', { 201: Thing }),
      method: 'POST',
      request: { body: r.bodySchema },
    } as const;
    const group = defineRoutes('things', [
      route,
      { ...row('listThings', { 200: Thing }), request: { query: r.querySchema } },
    ]);
    expect(() => declaredRequest(group.routes[0], 'body')).toThrow(
      /postThing body: request schema not loaded/,
    );
    await loadSchemas([group]);
    expect(declaredRequest(group.routes[0], 'body')).toBe(Body);
    expect(declaredRequest(group.routes[1], 'query')).toBe(Query);
    expect(declaredRequest(group.routes[1], 'path')).toBeUndefined();
  });

  it('give the same OpenAPI document as the schemas themselves', async () => {
    const r = lazySchemas(async () => ({ bodySchema: Body, querySchema: Query }));
    const lazy = defineRoutes('things', [
      {
        ...row('postThing', { 201: Thing }),
        method: 'POST',
        request: { body: r.bodySchema, query: r.querySchema },
      },
    ]);
    const eager = defineRoutes('things', [
      { ...row('postThing', { 201: Thing }), method: 'POST', request: { body: Body, query: Query } },
    ]);
    await loadSchemas([lazy]);
    expect(buildOpenApi([lazy], info)).toEqual(buildOpenApi([eager], info));
  });
});
