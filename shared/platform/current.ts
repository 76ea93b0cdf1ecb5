import { Table } from '#shared/adapters/dynamodb/table';
import { config } from '#shared/config';
import type { Container, Platform } from './container';

/**
 * Where the local runtime's bundled mode (`npm run start:bundled`) leaves its stand-ins of the AWS
 * services. Each esbuild bundle carries its own copy of this module, so useContainer cannot reach
 * it; a bundle finding a platform here builds its container on it (its own repositories, table
 * client and use cases, the runtime's scheduler, queues, bus, mailbox, key files) instead of AWS's.
 * Nothing sets it on AWS.
 */
export const LOCAL_PLATFORM = Symbol.for('payment-service.local-platform');

let current: Container | undefined;
let building: Promise<Container> | undefined;

/**
 * The container of this Lambda container, built on its first invocation. Only the configuration
 * and the table (the DynamoDB client, which every function uses on every invocation) load with
 * the function; the rest of the container (every repository, the payment providers and the zod
 * their modules import) is a chunk loaded here, on the first invocation, as the group's handler
 * map is (docs/decisions.md, "Cold start").
 */
export async function getContainer(): Promise<Container> {
  if (current) return current;
  building ??= (async () => {
    const cfg = await config();
    const table = new Table({ tableName: cfg.tableName, endpoint: cfg.dynamoEndpoint });
    const { createAwsContainer, createContainer } = await import('./container');
    const local = (globalThis as { [LOCAL_PLATFORM]?: Platform })[LOCAL_PLATFORM];
    current ??= local ? createContainer(cfg, { ...local, table }) : createAwsContainer(cfg, table);
    return current;
  })().catch((error: unknown) => {
    // A configuration that fails to parse fails every invocation, as it did when parsed in place.
    building = undefined;
    throw error;
  });
  return building;
}

/**
 * The local runtime's bundled mode: every bundle loaded in this process builds on `platform`, with
 * a table client of its own.
 */
export function offerLocalPlatform(platform: Platform): void {
  (globalThis as { [LOCAL_PLATFORM]?: Platform })[LOCAL_PLATFORM] = platform;
}

/** The local runtime (and the bench) install their container before any handler runs. */
export function useContainer(container: Container): void {
  current = container;
}
