import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGroups } from '#infra/routes';
import { type Synthesized, statementsOfRole, synthesize } from './synth';

let s: Synthesized;
beforeAll(() => {
  s = synthesize();
});
afterAll(() => s?.dispose());

describe('the request log on AWS', () => {
  it("subscribes the request-log function to every endpoint group's log group, on the request-log lines only", () => {
    const filters = Object.values(s.template.findResources('AWS::Logs::SubscriptionFilter'));
    const writer = s.logicalId(s.stack.functions.get('request-log'));
    const ofWriter = filters.filter((f) => JSON.stringify(f.Properties.DestinationArn).includes(writer));
    expect(ofWriter).toHaveLength(httpGroups.length);
    const groups = ofWriter.map((f) => JSON.stringify(f.Properties.LogGroupName)).sort();
    const expected = httpGroups
      .map((g) => JSON.stringify({ Ref: s.logicalId(s.stack.functions.logGroups.get(g.name)!) }))
      .sort();
    expect(groups).toEqual(expected);
    for (const f of ofWriter) expect(f.Properties.FilterPattern).toBe('{ $.requestLog.requestId = "*" }');
  });

  it('lets the writer put items on the request-log partitions and nothing else of the table', () => {
    const statements = statementsOfRole(s.template, s.logicalId(s.stack.functions.roles.get('request-log')!));
    const dynamo = statements.filter((st) =>
      (Array.isArray(st.Action) ? st.Action : [st.Action]).some((a: string) => a.startsWith('dynamodb:')),
    ) as ((typeof statements)[number] & { Condition?: unknown })[];
    expect(dynamo).toHaveLength(1);
    expect(dynamo[0].Action).toBe('dynamodb:PutItem');
    expect(dynamo[0].Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SELLER#*#REQUESTS'] },
    });
  });
});
