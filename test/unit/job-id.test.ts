import { describe, expect, it } from 'vitest';
import { jobId, parseJobId, parseNumericJobId } from '#shared/domain/job-id';

const TENANT = { sellerId: 42, environment: 'live' } as const;

describe('job ids', () => {
  it('names the resource with its seller and environment', () => {
    expect(jobId(TENANT, 7)).toBe('42:live:7');
    expect(jobId(TENANT, 'sch_live_abc')).toBe('42:live:sch_live_abc');
  });

  it('reads back the tenant and id of a job id it built', () => {
    expect(parseNumericJobId(jobId(TENANT, 7))).toEqual({ tenant: TENANT, id: 7 });
    expect(parseJobId(jobId(TENANT, 'sch_live_abc'), /sch_[A-Za-z0-9_]+/)).toEqual({
      tenant: TENANT,
      id: 'sch_live_abc',
    });
  });

  it('refuses an id the resource pattern does not match whole, or an unknown environment', () => {
    expect(parseNumericJobId('42:live:7x')).toBeNull();
    expect(parseNumericJobId('42:prod:7')).toBeNull();
    expect(parseNumericJobId('x:live:7')).toBeNull();
    expect(parseJobId('42:live:sch_a:b', /sch_[a-z]+/)).toBeNull();
  });
});
