import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, listensOn, startDynamoLocal } from '#infra/local/dynamodb-local';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** Something else on a port, answering every request as DynamoDB would answer ListTables. */
async function impostor(): Promise<number> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{"TableNames":[]}'),
    );
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', () => r()));
  return (server.address() as AddressInfo).port;
}

describe('listensOn', () => {
  it("tells whether a process holds a port's listening socket", async () => {
    const port = await impostor();
    expect(listensOn(process.pid, port)).toBe(true);
    expect(listensOn(process.pid, await freePort())).toBe(false);
    expect(listensOn(1, port)).toBe(false);
  });
});

describe('startDynamoLocal on a port someone else took', () => {
  it('refuses to call the other process ready when the port was given', async () => {
    const port = await impostor();
    await expect(startDynamoLocal({ dataDir: null, port })).rejects.toThrow(`could not bind port ${port}`);
  });

  it('starts again on another port when the picked one was taken meanwhile', async () => {
    const taken = await impostor();
    const picked: number[] = [];
    const dynamo = await startDynamoLocal({
      dataDir: null,
      pickPort: async () => {
        const port = picked.length === 0 ? taken : await freePort();
        picked.push(port);
        return port;
      },
    });
    try {
      expect(picked).toHaveLength(2);
      expect(dynamo.port).toBe(picked[1]);
      expect(listensOn(dynamo.pid as number, dynamo.port)).toBe(true);
    } finally {
      await dynamo.stop();
    }
  });
});
