import { Table } from '#shared/adapters/dynamodb/table';
import { config } from '#shared/config';
import type { Container } from './container';

let current: Container | undefined;
let building: Promise<Container> | undefined;

/**
 * The container of this Lambda container, built on its first invocation. Only the configuration
 * and the table (the DynamoDB client, which every function uses on every invocation) load with
 * the function; the rest of the container (every repository, the payment providers and the zod
 * their modules import) is a chunk loaded here, on the first invocation, as the group's use cases
 * are (docs/decisions.md, "Cold start").
 */
export async function getContainer(): Promise<Container> {
  if (current) return current;
  building ??= (async () => {
    const cfg = await config();
    const table = new Table({ tableName: cfg.tableName, endpoint: cfg.dynamoEndpoint });
    const { createAwsContainer } = await import('./container');
    current ??= createAwsContainer(cfg, table);
    return current;
  })().catch((error: unknown) => {
    // A configuration that fails to parse fails every invocation, as it did when parsed in place.
    building = undefined;
    throw error;
  });
  return building;
}

/** The local runtime (and the bench) install their container before any handler runs. */
export function useContainer(container: Container): void {
  current = container;
}
