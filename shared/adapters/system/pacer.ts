import type { ResponsePacer } from '#shared/domain/ports/customer-area';

/**
 * Wall time, not business time (the Clock port): how long an answer took is what an observer
 * measures, so the hold is real even when the test clock has been moved.
 */
export const wallClockPacer: ResponsePacer = {
  begin(floorMs: number) {
    const started = performance.now();
    return () =>
      new Promise<void>((resolve) =>
        setTimeout(resolve, Math.max(0, floorMs - (performance.now() - started))),
      );
  },
};
