import type { CloudFormationCustomResourceEvent, Context, SQSEvent } from 'aws-lambda';
import { runDeploymentMigrations } from '#shared/platform/migrations';

/**
 * The deployment's migrations: invoked by the stack's custom resource on every deployment that
 * changes the migration list, and again through its continuation queue while the work outlasts
 * one invocation (docs/operations.md, "Migrations").
 */
export const handler = (event: CloudFormationCustomResourceEvent | SQSEvent, context: Context) =>
  runDeploymentMigrations(event, {
    requestId: context.awsRequestId,
    remainingMs: context.getRemainingTimeInMillis(),
  });
