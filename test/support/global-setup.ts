import type { TestProject } from 'vitest/node';
import { buildAll } from '../../esbuild.config.mjs';
import { startDynamoLocal } from '../../infra/local/dynamodb-local';

/**
 * One DynamoDB Local (in memory) for the whole run; every test file gets its own table on it.
 * The function bundles are built once too, for the CDK assertions.
 */
export default async function setup(project: TestProject) {
  const [dynamo] = await Promise.all([startDynamoLocal({ dataDir: null }), buildAll()]);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    await dynamo.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
