import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { httpGroups } from '#infra/routes';
import { SAVED_CARD_LATER_DECLINES } from '#shared/adapters/sandbox-gateway/saved-cards';
import { SANDBOX_CARDS } from '#shared/domain/payments/cards';
import { buildOpenApi } from '#shared/http/openapi';
import { defineRoutes, type RouteGroup } from '#shared/http/types';
import { documentedAs } from '#shared/validation';
import { OPENAPI_FILE, openApiText } from '../../scripts/openapi';

const info = { title: 'Test API', version: '1.0.0' };

const Money = z.number().multipleOf(0.01).meta({ id: 'Money', description: 'Amount in Reais' });
const Product = z.object({ id: z.number().int(), name: z.string(), price: Money }).meta({ id: 'Product' });
const NewProduct = z
  .object({ name: z.string().trim().min(1), price: Money, active: z.boolean().default(true) })
  .meta({ id: 'NewProduct' });
const byId = z.object({ id: z.coerce.number().int().positive().describe('Product id') });

const shop = defineRoutes('shop', [
  {
    operationId: 'createProduct',
    method: 'POST',
    path: '/api/products',
    auth: ['apiKey', 'jwt'],
    summary: 'Create a product',
    request: { body: NewProduct },
    responses: { 201: Product },
    idempotent: true,
  },
  {
    operationId: 'listProducts',
    method: 'GET',
    path: '/api/products',
    auth: ['apiKey', 'jwt'],
    summary: 'List products',
    request: {
      query: z.object({
        page: z.coerce.number().int().min(1).default(1),
        status: z.enum(['active', 'inactive']).optional().describe('Only products in this state'),
        search: z.string(),
      }),
    },
    responses: { 200: z.object({ data: z.array(Product), totalCount: z.number().int() }) },
  },
  {
    operationId: 'getProduct',
    method: 'GET',
    path: '/api/products/{id}',
    auth: ['apiKey', 'jwt'],
    summary: 'Get a product',
    request: { path: byId },
    notFound: 'Product not found',
    responses: { 200: Product },
  },
  {
    operationId: 'replaceProduct',
    method: 'PUT',
    path: '/api/products/{id}',
    auth: ['apiKey'],
    summary: 'Replace a product',
    request: { path: byId, body: Product },
    notFound: 'Product not found',
    responses: { 200: Product },
  },
  {
    operationId: 'deleteProduct',
    method: 'DELETE',
    path: '/api/products/{id}',
    auth: ['panel'],
    summary: 'Delete a product',
    request: { path: byId },
    responses: { 204: null },
  },
  {
    operationId: 'getBoleto',
    method: 'GET',
    path: '/pay/{uuid}/boleto.pdf',
    auth: [],
    summary: 'Boleto PDF',
    responses: { 200: { contentType: 'application/pdf', description: 'The boleto' } },
  },
  {
    operationId: 'getPortal',
    method: 'GET',
    path: '/api/portal',
    auth: ['portalToken'],
    summary: 'Portal session',
    responses: { 200: z.object({ ok: z.boolean() }) },
  },
  {
    operationId: 'getMyArea',
    method: 'GET',
    path: '/api/minha-area',
    auth: ['magicLink'],
    summary: 'Customer area',
    responses: { 200: z.object({ ok: z.boolean() }) },
  },
  {
    operationId: 'payTestTransaction',
    method: 'POST',
    path: '/api/test-helpers/transactions/{id}/pay',
    auth: ['apiKey'],
    summary: 'Pay a sandbox transaction',
    testOnly: true,
    responses: { 200: null },
  },
  {
    operationId: 'getHealth',
    method: 'GET',
    path: '/api/health',
    auth: [],
    rateLimited: false,
    summary: 'Overall health',
    responses: { 200: z.object({ status: z.string() }), 503: z.object({ status: z.string() }) },
  },
]);

type Json = Record<string, any>;
const documentOf = (groups: RouteGroup[]) => buildOpenApi(groups, info) as Json;
const fixture = documentOf([shop]);
const op = (path: string, method: string): Json => fixture.paths[path][method];

async function expectValid(document: Json) {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');
}

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

function expectRefsResolve(document: Json) {
  for (const ref of refsIn(document)) {
    const [, section, name] = /^#\/components\/(schemas|parameters)\/(.+)$/.exec(ref) ?? [];
    expect(document.components[section]?.[name], ref).toBeDefined();
  }
}

const headerNames = (operation: Json, document: Json) =>
  (operation.parameters ?? [])
    .filter((p: Json) => p.$ref)
    .map((p: Json) => document.components.parameters[p.$ref.split('/').pop()].name);

describe('buildOpenApi', () => {
  it('produces a document the OpenAPI 3.1 schema accepts, with every $ref resolving', async () => {
    await expectValid(fixture);
    expectRefsResolve(fixture);
    expect(fixture.openapi).toBe('3.1.0');
  });

  it('gives the same bytes for the same rows', () => {
    expect(JSON.stringify(documentOf([shop]))).toBe(JSON.stringify(fixture));
  });

  it('maps each auth scheme to its security requirement, and public routes to none', () => {
    expect(op('/api/products', 'post').security).toEqual([{ apiKey: [] }, { dashboardJwt: [] }]);
    expect(op('/api/products/{id}', 'delete').security).toEqual([{ dashboardJwt: [] }]);
    expect(op('/api/portal', 'get').security).toEqual([{ portalToken: [] }]);
    expect(op('/api/minha-area', 'get').security).toEqual([{ magicLink: [] }]);
    expect(op('/pay/{uuid}/boleto.pdf', 'get').security).toEqual([]);
    expect(fixture.components.securitySchemes.portalToken).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'token',
    });
    expect(fixture.components.securitySchemes.dashboardJwt).toMatchObject({
      type: 'http',
      bearerFormat: 'JWT',
    });
  });

  it('tags each operation with its group and keeps operationId and summary', () => {
    expect(op('/api/products', 'post')).toMatchObject({
      operationId: 'createProduct',
      summary: 'Create a product',
      tags: ['shop'],
    });
    expect(fixture.tags).toEqual([{ name: 'shop' }]);
  });

  it('describes path parameters as required, with the input schema and its description', () => {
    expect(op('/api/products/{id}', 'get').parameters.filter((p: Json) => p.in === 'path')).toEqual([
      {
        name: 'id',
        in: 'path',
        required: true,
        description: 'Product id',
        schema: { type: 'integer', exclusiveMinimum: 0 },
      },
    ]);
    expect(op('/pay/{uuid}/boleto.pdf', 'get').parameters).toEqual([
      { name: 'uuid', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  it('gives each query property its own parameter, required only when the schema requires it', () => {
    const query = op('/api/products', 'get').parameters.filter((p: Json) => p.in === 'query');
    expect(query.map((p: Json) => [p.name, p.required])).toEqual([
      ['page', false],
      ['status', false],
      ['search', true],
    ]);
    expect(query[0].schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(query[1]).toMatchObject({ description: 'Only products in this state' });
    expect(query[1].schema).toEqual({ type: 'string', enum: ['active', 'inactive'] });
  });

  it('adds X-Idempotency-Key to idempotent routes and X-Environment and X-Seller-Id to routes taking a dashboard JWT', () => {
    expect(headerNames(op('/api/products', 'post'), fixture)).toEqual([
      'X-Idempotency-Key',
      'X-Environment',
      'X-Seller-Id',
    ]);
    expect(headerNames(op('/api/products/{id}', 'delete'), fixture)).toEqual([
      'X-Environment',
      'X-Seller-Id',
    ]);
    expect(headerNames(op('/api/test-helpers/transactions/{id}/pay', 'post'), fixture)).toEqual([]);
    expect(fixture.components.parameters.IdempotencyKey).toMatchObject({ in: 'header', required: false });
  });

  it('names schemas with an id as components, split into input and output shapes only where they differ', () => {
    const create = op('/api/products', 'post');
    const schemaOf = (content: Json) => content['application/json'].schema;
    expect(create.requestBody.required).toBe(true);
    expect(schemaOf(create.requestBody.content)).toEqual({ $ref: '#/components/schemas/NewProduct' });
    expect(schemaOf(create.responses['201'].content)).toEqual({ $ref: '#/components/schemas/Product' });
    const replace = op('/api/products/{id}', 'put');
    expect(schemaOf(replace.requestBody.content)).toEqual({ $ref: '#/components/schemas/ProductInput' });
    const { schemas } = fixture.components;
    // Only accepted, never answered: one component, in its input shape (the default is optional).
    expect(schemas.NewProduct.required).toEqual(['name', 'price']);
    expect(schemas.NewProductInput).toBeUndefined();
    // Answered and accepted: the answer is closed, the input strips unknown keys.
    expect(schemas.Product.additionalProperties).toBe(false);
    expect(schemas.ProductInput.additionalProperties).toBeUndefined();
    expect(schemas.Money).toEqual({ type: 'number', multipleOf: 0.01, description: 'Amount in Reais' });
    expect(schemas.MoneyInput).toBeUndefined();
    expect(schemas.ProductInput.properties.price).toEqual({ $ref: '#/components/schemas/Money' });
  });

  it('marks the body optional on routes that read an absent body as {}', () => {
    const lenient = defineRoutes('lenient', [
      {
        ...shop.routes[0],
        operationId: 'touch',
        path: '/api/touch',
        request: { body: NewProduct, optionalBody: true },
      },
    ]);
    expect(documentOf([lenient]).paths['/api/touch'].post.requestBody.required).toBe(false);
  });

  it('answers empty bodies without content and raw answers with their content type', () => {
    expect(op('/api/products/{id}', 'delete').responses['204']).toEqual({ description: 'No Content' });
    expect(op('/pay/{uuid}/boleto.pdf', 'get').responses['200']).toEqual({
      description: 'The boleto',
      content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    });
  });

  it.each([
    ['/api/products', 'post', ['201', '400', '401', '403', '409', '422', '429', '500']],
    ['/api/products', 'get', ['200', '400', '401', '429', '500']],
    ['/api/products/{id}', 'get', ['200', '400', '401', '404', '429', '500']],
    ['/api/products/{id}', 'put', ['200', '400', '401', '403', '404', '429', '500']],
    ['/api/products/{id}', 'delete', ['204', '400', '401', '404', '429', '500']],
    ['/pay/{uuid}/boleto.pdf', 'get', ['200', '404', '429', '500']],
    ['/api/test-helpers/transactions/{id}/pay', 'post', ['200', '401', '403', '404', '429', '500']],
    ['/api/health', 'get', ['200', '500', '503']],
  ])('%s %s answers %j', (path, method, statuses) => {
    const { responses } = op(path, method);
    expect(Object.keys(responses)).toEqual(statuses);
    for (const status of statuses.filter((s) => Number(s) >= 400 && s !== '503')) {
      expect(responses[status].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ErrorBody',
      });
    }
  });

  it('keeps a status the route declares itself instead of the error body', () => {
    expect(op('/api/health', 'get').responses['503'].content['application/json'].schema).toMatchObject({
      type: 'object',
    });
    expect(op('/api/products', 'get').responses['429'].headers['Retry-After']).toBeDefined();
  });

  it('names the anonymous definitions of a recursive schema after the operation', async () => {
    const Category: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Category);
      },
    });
    const tree = defineRoutes('tree', [
      {
        operationId: 'getTree',
        method: 'GET',
        path: '/api/tree',
        auth: [],
        summary: 'Category tree',
        responses: { 200: z.object({ root: Category }) },
      },
    ]);
    const document = documentOf([tree]);
    await expectValid(document);
    expectRefsResolve(document);
    expect(document.components.schemas.getTree_200_schema0.properties.children.items).toEqual({
      $ref: '#/components/schemas/getTree_200_schema0',
    });
  });

  it('shows a field marked documentedAs as the schema it names, and validates it as before', () => {
    const buyer = z.object({ name: z.string(), email: z.email() }).strict();
    const loose = documentedAs(z.record(z.string(), z.unknown()), buyer);
    const sale = z.object({ buyer: loose, note: z.string().optional() });
    const shop = defineRoutes('sale', [
      {
        operationId: 'sell',
        method: 'POST',
        path: '/api/sales',
        auth: [],
        summary: 'Sell',
        request: { body: sale },
        responses: { 201: null },
      },
    ]);
    const body = documentOf([shop]).paths['/api/sales'].post.requestBody.content['application/json'].schema;
    expect(body.properties.buyer).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, email: expect.objectContaining({ format: 'email' }) },
      required: ['name', 'email'],
      additionalProperties: false,
    });
    // The route's own parse still takes any object: the use case checks the buyer.
    expect(sale.safeParse({ buyer: { anything: 1 } }).success).toBe(true);
  });

  it('refuses two routes with one operationId and two schemas with one id', () => {
    const twice = defineRoutes('twice', [
      shop.routes[0],
      { ...shop.routes[1], operationId: 'createProduct' },
    ]);
    expect(() => documentOf([twice])).toThrow(/createProduct is used twice/);
    const other = z.object({ other: z.string() }).meta({ id: 'Product' });
    const clash = defineRoutes('clash', [
      { ...shop.routes[1], operationId: 'other', path: '/api/other', responses: { 200: other } },
    ]);
    expect(() => documentOf([shop, clash])).toThrow(/"Product"/);
  });
});

describe('the document of the API', () => {
  let api: Json;
  beforeAll(async () => {
    api = JSON.parse(await openApiText());
  });

  it('is valid OpenAPI 3.1 with every $ref resolving', async () => {
    await expectValid(api);
    expectRefsResolve(api);
  });

  it('has every route of every group, with its method, security and path parameters', () => {
    for (const group of httpGroups) {
      for (const route of group.routes) {
        const path = route.path.replace(/\{(\w+)\+\}/g, '{$1}');
        const operation = api.paths[path]?.[route.method.toLowerCase()];
        expect(operation, `${route.method} ${route.path}`).toBeDefined();
        expect(operation.operationId).toBe(route.operationId);
        expect(operation.tags).toEqual([group.name]);
        const schemes = new Set(route.auth.map((s) => (s === 'jwt' || s === 'panel' ? 'dashboardJwt' : s)));
        // A public route that also takes an API key: anonymous, or the key.
        expect(operation.security).toEqual(
          route.acceptsApiKey ? [{}, { apiKey: [] }] : [...schemes].map((name) => ({ [name]: [] })),
        );
        const pathParams = [...route.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]);
        const declared = (operation.parameters ?? []).filter((p: Json) => p.in === 'path');
        expect(declared.map((p: Json) => p.name)).toEqual(pathParams);
        const headers = headerNames(operation, api);
        expect(headers.includes('X-Idempotency-Key')).toBe(Boolean(route.idempotent));
        expect(headers.includes('X-Environment')).toBe(
          route.auth.includes('jwt') || route.auth.includes('panel'),
        );
      }
    }
  });

  it("types a sale's customer with the customer's fields, not as a free map", () => {
    const customerOf = (path: string) =>
      api.paths[path].post.requestBody.content['application/json'].schema.properties.customer;
    for (const path of ['/api/transactions', '/api/public/checkout/{ref}/pay']) {
      const customer = customerOf(path);
      expect(Object.keys(customer.properties), path).toEqual([
        'name',
        'email',
        'document',
        'phone',
        'zipCode',
        'street',
        'number',
        'complement',
        'neighborhood',
        'city',
        'state',
      ]);
      expect(customer.required).toEqual(['name', 'email', 'document', 'phone']);
      expect(customer.additionalProperties).toBe(false);
      expect(customer.propertyNames).toBeUndefined();
      expect(customer.properties.document.description).toMatch(/CPF .* or CNPJ/);
    }
  });

  it('starts with the getting-started guide and lists every sandbox test card', () => {
    const text: string = api.info.description;
    for (const heading of ['Keys', 'A first sale', 'Webhooks', 'Test cards', 'The test clock'])
      expect(text).toMatch(new RegExp(`^### \\d\\. ${heading}$`, 'm'));
    for (const number of [...Object.keys(SANDBOX_CARDS), ...Object.keys(SAVED_CARD_LATER_DECLINES)])
      expect(text.replaceAll(/(\d) (?=\d)/g, '$1')).toContain(`\`${number}\``);
    expect(text).toContain('`4000 0000 0000 0002` | declined: `card_declined`');
    expect(text).not.toContain('<!--');
  });

  it('is what docs/openapi.json holds (run `npm run openapi` after changing a route)', async () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(await openApiText());
  });
});
