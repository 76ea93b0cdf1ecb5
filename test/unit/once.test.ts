import { describe, expect, it } from 'vitest';
import { once } from '#shared/once';

describe('once', () => {
  it('builds nothing until the first call, then hands back the same value', () => {
    let builds = 0;
    const get = once(() => {
      builds += 1;
      return { built: builds };
    });
    expect(builds).toBe(0);
    const first = get();
    expect(get()).toBe(first);
    expect(builds).toBe(1);
  });

  it('keeps a falsy value instead of building again', () => {
    let builds = 0;
    const get = once(() => {
      builds += 1;
      return undefined;
    });
    get();
    get();
    expect(builds).toBe(1);
  });

  it('builds again after a failed build', () => {
    let builds = 0;
    const get = once(() => {
      builds += 1;
      if (builds === 1) throw new Error('first build fails');
      return builds;
    });
    expect(get).toThrow('first build fails');
    expect(get()).toBe(2);
  });
});
