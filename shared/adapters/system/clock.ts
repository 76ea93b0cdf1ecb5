import type { Clock } from '#shared/domain/ports';

export const systemClock: Clock = { now: () => new Date() };
