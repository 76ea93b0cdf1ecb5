import { createServer } from 'node:http';
import { SIGNATURE_HEADER, verifySignature } from '#events/signing';

/**
 * `npm run webhook-receiver -- <whsec_ secret> [port]`: a webhook endpoint on 127.0.0.1 (port 4000
 * unless given; any path) for trying the service locally. It checks each delivery's signature with
 * the endpoint's secret, as a seller's server must, and prints one line per delivery:
 * `verified <event> <id>` (answered 200), `verified again …` for an event id it already saw (a retry
 * or a resend: process it once), or `rejected: <why>` (answered 400, so the service retries it).
 */
const [secret, portArgument = '4000'] = process.argv.slice(2);
const port = Number(portArgument);
if (!secret?.startsWith('whsec_') || !Number.isInteger(port) || port <= 0 || port > 65_535) {
  console.error('usage: npm run webhook-receiver -- <whsec_ secret of the endpoint> [port, default 4000]');
  process.exit(2);
}

const seen = new Set<string>();
const server = createServer(async (req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('webhook receiver: POST deliveries here\n');
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  // The signature covers the body exactly as sent: verify the raw text before parsing it.
  const rawBody = Buffer.concat(chunks).toString('utf8');
  try {
    verifySignature({
      header: req.headers[SIGNATURE_HEADER] as string | undefined,
      rawBody,
      secrets: secret,
    });
  } catch (error) {
    console.log(`rejected: ${(error as Error).message}`);
    res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid signature\n');
    return;
  }
  const event = JSON.parse(rawBody) as { id: string; event: string };
  console.log(`verified ${seen.has(event.id) ? 'again ' : ''}${event.event} ${event.id}`);
  seen.add(event.id);
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
});

server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/hook`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
