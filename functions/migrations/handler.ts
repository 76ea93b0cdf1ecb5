import type { CloudFormationCustomResourceEvent, Context, SQSEvent } from 'aws-lambda';
import { once } from '#shared/once';

// The runner (every migration and the entities they read) loads on the first invocation, not at
// cold start (docs/decisions.md, "Cold start").
const runner = once(() => import('#shared/platform/migrations'));

/**
 * The deployment's migrations: invoked by the stack's custom resource on every deployment that
 * changes the migration list, and again through its continuation queue while the work outlasts
 * one invocation (docs/operations.md, "Migrations").
 */
export const handler = async (event: CloudFormationCustomResourceEvent | SQSEvent, context: Context) => {
  const { runDeploymentMigrations } = await runner();
  return runDeploymentMigrations(event, {
    requestId: context.awsRequestId,
    remainingMs: context.getRemainingTimeInMillis(),
  });
};
