import {
  ActionAfterCompletion,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  FlexibleTimeWindowMode,
  ResourceNotFoundException,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { TIME_ZONE } from '#shared/dates';
import type { ScheduledJob, Scheduler } from '#shared/domain/ports';

/** `at()` takes a wall-clock time in the schedule's time zone, without offset or milliseconds. */
export function atExpression(at: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: TIME_ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return `at(${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second})`;
}

/**
 * Scheduler's context attribute for the time a schedule was due; Scheduler replaces it in the
 * target input, so the jobs function can log how late each run started (the scheduler-lag metric).
 */
export const SCHEDULED_TIME = '<aws.scheduler.scheduled-time>';

/** The input of a schedule's target: the job plus its due time, filled in by Scheduler. */
export const scheduleInputOf = (payload: ScheduledJob): string =>
  JSON.stringify({ ...payload, dueAt: SCHEDULED_TIME });

export interface EventBridgeSchedulerOptions {
  client: SchedulerClient;
  groupName: string;
  targetArn: string;
  roleArn: string;
}

/** One-time schedules in Sao Paulo time that delete themselves after firing. */
export class EventBridgeScheduler implements Scheduler {
  constructor(private readonly options: EventBridgeSchedulerOptions) {}

  async scheduleAt(name: string, at: Date, payload: ScheduledJob): Promise<void> {
    await this.options.client.send(
      new CreateScheduleCommand({
        Name: name,
        GroupName: this.options.groupName,
        ScheduleExpression: atExpression(at),
        ScheduleExpressionTimezone: TIME_ZONE,
        FlexibleTimeWindow: { Mode: FlexibleTimeWindowMode.OFF },
        ActionAfterCompletion: ActionAfterCompletion.DELETE,
        Target: {
          Arn: this.options.targetArn,
          RoleArn: this.options.roleArn,
          Input: scheduleInputOf(payload),
          RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86_400 },
        },
      }),
    );
  }

  async cancel(name: string): Promise<void> {
    try {
      await this.options.client.send(
        new DeleteScheduleCommand({ Name: name, GroupName: this.options.groupName }),
      );
    } catch (error) {
      // Already fired (and deleted itself) or never existed: cancelling is done either way.
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
}
