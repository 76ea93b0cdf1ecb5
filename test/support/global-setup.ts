import type { TestProject } from 'vitest/node';
import { buildAll, buildDashboard } from '../../esbuild.config.mjs';
import { unpackedChromium } from './chromium';
import { DynamoPool } from './dynamo-pool';

/**
 * A pool of DynamoDB Locals (in memory) served to the workers over loopback: every test file
 * leases a fresh one (test/support/file-dynamo.ts). The function bundles are built once too, for
 * the CDK assertions, the dashboard for the runtimes that serve it, and npm's Chromium is unpacked once, before any worker launches it.
 */
export default async function setup(project: TestProject) {
  unpackedChromium();
  const pool = new DynamoPool();
  pool.warm();
  const [{ url, server }] = await Promise.all([pool.serve(), buildAll(), buildDashboard()]);
  project.provide('dynamoPool', url);
  return async () => {
    server.close();
    await pool.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoPool: string;
  }
}
