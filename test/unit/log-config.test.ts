import { describe, expect, it } from 'vitest';
import { awsRegion, logConfig } from '#shared/config';

describe('logConfig', () => {
  it('reads LOG_LEVEL alone: no other variable is needed', () => {
    expect(logConfig({ LOG_LEVEL: 'debug' })).toEqual({ level: 'debug' });
    expect(logConfig({ LOG_LEVEL: 'silent' })).toEqual({ level: 'silent' });
  });

  it('logs at info when LOG_LEVEL is missing or unknown', () => {
    expect(logConfig({})).toEqual({ level: 'info' });
    expect(logConfig({ LOG_LEVEL: 'verbose' })).toEqual({ level: 'info' });
  });
});

describe('awsRegion', () => {
  it('is the region the Lambda runtime sets, else Sao Paulo', () => {
    expect(awsRegion({ AWS_REGION: 'us-east-1' })).toBe('us-east-1');
    expect(awsRegion({})).toBe('sa-east-1');
  });
});
