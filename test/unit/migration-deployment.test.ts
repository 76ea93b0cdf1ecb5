import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { CustomResourceAnswer } from '#shared/adapters/cloudformation/custom-resource';
import { DEADLINE_MARGIN_MS, deploymentStep } from '#shared/adapters/dynamodb/migrations/deployment';
import { type MigrationOutcome, MigrationRefusedError } from '#shared/adapters/dynamodb/migrations/runner';

const NOW = Date.parse('2026-11-28T12:00:00Z');

const eventOf = (RequestType: 'Create' | 'Update' | 'Delete') =>
  ({
    RequestType,
    ServiceToken: 'arn:aws:lambda:sa-east-1:123456789012:function:migrations',
    ResponseURL: 'https://cloudformation-custom-resource-response.example/signed',
    StackId: 'arn:aws:cloudformation:sa-east-1:123456789012:stack/PaymentService-prod/1',
    RequestId: 'r-1',
    LogicalResourceId: 'Migrations',
    ResourceType: 'Custom::Migrations',
    ResourceProperties: { ServiceToken: 'x', Format: '3', ContinuationQueueUrl: 'https://sqs.example/q' },
    ...(RequestType === 'Create' ? {} : { PhysicalResourceId: 'migrations', OldResourceProperties: {} }),
  }) as CloudFormationCustomResourceEvent;

function harness(result: MigrationOutcome | Error) {
  const answers: CustomResourceAnswer[] = [];
  const continued: number[] = [];
  const deadlines: Date[] = [];
  const deps = {
    clock: { now: () => new Date(NOW) },
    migrate: async (deadline: Date) => {
      deadlines.push(deadline);
      if (result instanceof Error) throw result;
      return result;
    },
    answer: async (_: CloudFormationCustomResourceEvent, answer: CustomResourceAnswer) => {
      answers.push(answer);
    },
    continueLater: async (_: CloudFormationCustomResourceEvent, delay: number) => {
      continued.push(delay);
    },
  };
  return { deps, answers, continued, deadlines };
}

describe('the deployment step of the migrations custom resource', () => {
  it('answers a Delete at once, migrating nothing', async () => {
    const h = harness({ state: 'current', format: 3, ran: [], stamped: false });
    await deploymentStep(eventOf('Delete'), 900_000, h.deps);
    expect(h.answers).toEqual([{ status: 'SUCCESS' }]);
    expect(h.deadlines).toEqual([]);
  });

  it('answers SUCCESS with the format once the table is current, stopping a margin before the timeout', async () => {
    const h = harness({ state: 'current', format: 3, ran: [3], stamped: false });
    await deploymentStep(eventOf('Update'), 900_000, h.deps);
    expect(h.deadlines).toEqual([new Date(NOW + 900_000 - DEADLINE_MARGIN_MS)]);
    expect(h.answers).toEqual([{ status: 'SUCCESS', data: { Format: '3' } }]);
    expect(h.continued).toEqual([]);
  });

  it('goes on in a new invocation when the deadline came first, answering nothing yet', async () => {
    const h = harness({ state: 'paused', format: 2, migration: 3 });
    await deploymentStep(eventOf('Create'), 900_000, h.deps);
    expect(h.continued).toEqual([0]);
    expect(h.answers).toEqual([]);
  });

  it("waits out another runner's lease before going on", async () => {
    const until = new Date(NOW + 42_500).toISOString();
    const h = harness({ state: 'leased', format: 2, migration: 3, owner: 'lambda:other', until });
    await deploymentStep(eventOf('Update'), 900_000, h.deps);
    expect(h.continued).toEqual([43]);
    expect(h.answers).toEqual([]);
  });

  it('answers FAILED with the reason when the table is refused, and fails the invocation', async () => {
    const refusal = new MigrationRefusedError(4, 3);
    const h = harness(refusal);
    await expect(deploymentStep(eventOf('Update'), 900_000, h.deps)).rejects.toBe(refusal);
    expect(h.answers).toEqual([{ status: 'FAILED', reason: refusal.message }]);
    expect(refusal.message).toContain('newer than the format 3');
  });
});
