import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { atExpression, EventBridgeScheduler } from '#shared/adapters/scheduler/eventbridge-scheduler';

const mock = mockClient(SchedulerClient);

const options = {
  client: new SchedulerClient({ region: 'sa-east-1' }),
  groupName: 'payment-service-jobs',
  targetArn: 'arn:aws:lambda:sa-east-1:123456789012:function:jobs',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler-invoke-jobs',
};

beforeEach(() => {
  mock.reset();
});

describe('atExpression', () => {
  it('writes a UTC instant as Sao Paulo wall time without offset or milliseconds', () => {
    expect(atExpression(new Date('2026-11-22T02:30:15.789Z'))).toBe('at(2026-11-21T23:30:15)');
  });

  it('writes midnight in Sao Paulo as 00, not 24', () => {
    expect(atExpression(new Date('2026-11-22T03:00:00.000Z'))).toBe('at(2026-11-22T00:00:00)');
  });

  it('zero-pads every field', () => {
    expect(atExpression(new Date('2027-01-05T10:04:05.000Z'))).toBe('at(2027-01-05T07:04:05)');
  });

  it('crosses the year boundary in Sao Paulo time', () => {
    expect(atExpression(new Date('2027-01-01T02:59:59.000Z'))).toBe('at(2026-12-31T23:59:59)');
  });
});

describe('EventBridgeScheduler.scheduleAt', () => {
  it('creates a one-time schedule in Sao Paulo time that deletes itself and retries for 24 h', async () => {
    mock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:::schedule/x' });
    const scheduler = new EventBridgeScheduler(options);
    await scheduler.scheduleAt('expire-pay_123', new Date('2026-11-22T02:30:00.000Z'), {
      job: 'expire-payment',
      id: 'pay_123',
    });
    const calls = mock.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      Name: 'expire-pay_123',
      GroupName: 'payment-service-jobs',
      ScheduleExpression: 'at(2026-11-21T23:30:00)',
      ScheduleExpressionTimezone: 'America/Sao_Paulo',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: 'arn:aws:lambda:sa-east-1:123456789012:function:jobs',
        RoleArn: 'arn:aws:iam::123456789012:role/scheduler-invoke-jobs',
        Input: '{"job":"expire-payment","id":"pay_123","dueAt":"<aws.scheduler.scheduled-time>"}',
        RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86_400 },
      },
    });
    expect(JSON.parse(calls[0].args[0].input.Target?.Input as string)).toEqual({
      job: 'expire-payment',
      id: 'pay_123',
      dueAt: '<aws.scheduler.scheduled-time>',
    });
  });

  it('lets a name conflict surface to the caller', async () => {
    mock
      .on(CreateScheduleCommand)
      .rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    const scheduler = new EventBridgeScheduler(options);
    await expect(
      scheduler.scheduleAt('expire-pay_123', new Date(), { job: 'expire-payment', id: 'pay_123' }),
    ).rejects.toBeInstanceOf(ConflictException);
  });
});

describe('EventBridgeScheduler.cancel', () => {
  it('deletes the schedule by name in the group', async () => {
    mock.on(DeleteScheduleCommand).resolves({});
    await new EventBridgeScheduler(options).cancel('expire-pay_123');
    const calls = mock.commandCalls(DeleteScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({ Name: 'expire-pay_123', GroupName: 'payment-service-jobs' });
  });

  it('treats a schedule that no longer exists as cancelled', async () => {
    mock.on(DeleteScheduleCommand).rejects(
      new ResourceNotFoundException({
        message: 'Schedule not found',
        Message: 'Schedule not found',
        $metadata: {},
      }),
    );
    await expect(new EventBridgeScheduler(options).cancel('expire-pay_123')).resolves.toBeUndefined();
  });

  it('rethrows any other failure', async () => {
    const failure = new ValidationException({ message: 'bad name', Message: 'bad name', $metadata: {} });
    mock.on(DeleteScheduleCommand).rejects(failure);
    await expect(new EventBridgeScheduler(options).cancel('expire-pay_123')).rejects.toBe(failure);
  });

  it('rethrows a network error', async () => {
    mock.on(DeleteScheduleCommand).rejects(new Error('socket hang up'));
    await expect(new EventBridgeScheduler(options).cancel('x')).rejects.toThrow('socket hang up');
  });
});
