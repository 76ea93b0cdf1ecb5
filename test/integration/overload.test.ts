import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { type client, useTestRuntime } from '../support/runtime';

/** A throttled store answers 503 with Retry-After and the error body, and writes nothing. */

let runtime: Runtime;
let api: ReturnType<typeof client>;
useTestRuntime((r, a) => {
  runtime = r;
  api = a;
});

/** The DynamoDB commands that fail as DynamoDB throttles them, while the set is not empty. */
const throttled = new Set<string>();
let installed = false;
function throttle(...commands: string[]) {
  if (!installed) {
    runtime.deps.table.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (throttled.has(String(context.commandName)))
          throw new ProvisionedThroughputExceededException({
            message: 'The level of configured provisioned throughput for the table was exceeded.',
            $metadata: { httpStatusCode: 400 },
          });
        return next(args);
      },
      { step: 'initialize', name: 'testThrottle' },
    );
    installed = true;
  }
  for (const c of commands) throttled.add(c);
}
afterEach(() => throttled.clear());

async function sellerKey() {
  const now = runtime.clock.now();
  const sellerId = await runtime.deps.repos.sellers.create('Loja sob carga', now);
  const jwt = await runtime.issuer.sign(sellerId, { now });
  const res = await api.post('/api/api-keys', { name: 'k', environment: 'test' }, { token: jwt });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.key as string;
}

const productBody = { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 100 };

describe('a throttled store', () => {
  it('answers a create 503 with Retry-After and the error body, writes nothing, and frees the idempotency key', async () => {
    const key = await sellerKey();
    // The idempotency claim (a PutItem) goes through; the product's write (one transaction) is throttled.
    throttle('TransactWriteItemsCommand');
    const headers = { 'x-idempotency-key': 'create-under-load-1' };
    const refused = await api.post('/api/products', productBody, { token: key, headers });
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.body).toEqual({
      statusCode: 503,
      message: 'The service is overloaded or a dependency did not answer in time; retry later.',
      code: 'service_overloaded',
      timestamp: expect.any(String),
      path: '/api/products',
    });
    throttled.clear();
    const listed = await api.get('/api/products', { token: key });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    // The 503 did not pin the key: the client's retry runs and creates the product once.
    const retried = await api.post('/api/products', productBody, { token: key, headers });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect((await api.get('/api/products', { token: key })).body.data).toHaveLength(1);
  });

  it('answers a read 503 while its query is throttled, and 200 once it is not', async () => {
    const key = await sellerKey();
    throttle('QueryCommand');
    const refused = await api.get('/api/transactions', { token: key });
    expect(refused.status, JSON.stringify(refused.body)).toBe(503);
    expect(refused.body.code).toBe('service_overloaded');
    expect(refused.headers.get('retry-after')).toBe('2');
    throttled.clear();
    expect((await api.get('/api/transactions', { token: key })).status).toBe(200);
  });
});
