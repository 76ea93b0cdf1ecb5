import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleInputOf } from '#shared/adapters/scheduler/eventbridge-scheduler';
import { RECONCILIATION_DIFFERENCES_METRIC } from '#shared/domain/reconciliation/reconciliation';
import { DAILY_RECONCILIATION_JOB } from '#shared/jobs';
import { type Synthesized, synthesize } from './synth';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});
afterAll(() => s?.dispose());

describe('daily reconciliation', () => {
  it('runs the reconciliation job every day at 03:00 Sao Paulo time, by the jobs function', () => {
    const jobs = s.logicalId(s.stack.functions.get('jobs'));
    s.template.hasResourceProperties('AWS::Scheduler::Schedule', {
      GroupName: s.stack.asyncInfra.scheduleGroup.scheduleGroupName,
      ScheduleExpression: 'cron(0 3 * * ? *)',
      ScheduleExpressionTimezone: 'America/Sao_Paulo',
      Target: {
        Arn: { 'Fn::GetAtt': [jobs, 'Arn'] },
        RoleArn: { 'Fn::GetAtt': [s.logicalId(s.stack.asyncInfra.schedulerRole), 'Arn'] },
        Input: scheduleInputOf(DAILY_RECONCILIATION_JOB),
      },
    });
    expect(JSON.parse(scheduleInputOf(DAILY_RECONCILIATION_JOB))).toMatchObject({
      job: 'provider-reconciliation',
      id: 'daily',
    });
  });

  it('alarms to the alarm topic on any difference the reconciliation reports', () => {
    const alarms = Object.values(s.template.findResources('AWS::CloudWatch::Alarm')).map(
      (a) => (a as { Properties: Record<string, any> }).Properties,
    );
    const alarm = alarms.find(
      (a) => a.Namespace === 'PaymentService' && a.MetricName === RECONCILIATION_DIFFERENCES_METRIC,
    );
    expect(alarm).toMatchObject({
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(alarm?.AlarmActions).toHaveLength(1);
    expect(JSON.stringify(alarm?.AlarmActions)).toContain(s.logicalId(s.stack.alarms.topic));
  });
});
