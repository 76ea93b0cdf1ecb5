import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import type { CustomResourceAnswer } from '#shared/adapters/cloudformation/custom-resource';
import type { Clock } from '#shared/domain/ports';
import { logger } from '#shared/logger';
import { type MigrationOutcome, MigrationRefusedError } from './runner';

/**
 * Time kept free before the function's own timeout: a page in flight, its checkpoint, the lease's
 * release and the continuation's SendMessage all end within it.
 */
export const DEADLINE_MARGIN_MS = 60_000;
/** SQS's longest delay: a continuation waiting out another runner's lease asks again after it. */
const MAX_DELAY_SECONDS = 900;

export interface DeploymentStepDeps {
  clock: Clock;
  /** runMigrations on the stack's table, stopping at `deadline`. */
  migrate(deadline: Date): Promise<MigrationOutcome>;
  answer(event: CloudFormationCustomResourceEvent, answer: CustomResourceAnswer): Promise<void>;
  /** The same event again, as a new invocation of this function, `delaySeconds` from now. */
  continueLater(event: CloudFormationCustomResourceEvent, delaySeconds: number): Promise<void>;
}

const log = logger.child({ component: 'migrations' });

/**
 * One invocation of the deployment's migrations (the custom resource's Create or Update, or its
 * continuation). It runs until `remainingMs` minus the margin; what is left goes on in a new
 * invocation (continueLater) from the recorded cursors, and the last one answers CloudFormation,
 * which waits for that answer (the resource's service timeout). A Delete migrates nothing.
 *
 * A failure answers FAILED with its reason and is thrown again, so the invocation counts as an
 * error (its alarm) and lands in the failure queue; the next deployment resumes from the cursors.
 */
export async function deploymentStep(
  event: CloudFormationCustomResourceEvent,
  remainingMs: number,
  deps: DeploymentStepDeps,
): Promise<void> {
  if (event.RequestType === 'Delete') {
    await deps.answer(event, { status: 'SUCCESS' });
    return;
  }
  const now = deps.clock.now().getTime();
  let outcome: MigrationOutcome;
  try {
    outcome = await deps.migrate(new Date(now + remainingMs - DEADLINE_MARGIN_MS));
  } catch (error) {
    const refused = error instanceof MigrationRefusedError;
    const reason = refused ? error.message : `A migration failed: ${(error as Error).message}`;
    log.error('migrations failed', { reason, error });
    await deps.answer(event, { status: 'FAILED', reason });
    throw error;
  }
  if (outcome.state === 'current') {
    log.info('table at the latest format', {
      format: outcome.format,
      ran: outcome.ran,
      stamped: outcome.stamped,
    });
    await deps.answer(event, { status: 'SUCCESS', data: { Format: String(outcome.format) } });
    return;
  }
  const delay =
    outcome.state === 'leased'
      ? Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.ceil((Date.parse(outcome.until) - now) / 1000)))
      : 0;
  log.info('migrations continue in a new invocation', { ...outcome, delaySeconds: delay });
  await deps.continueLater(event, delay);
}
