import type { Deps } from '#shared/domain/deps';
import type { Logger } from '#shared/logger';

/**
 * What applying a provider's notification needs, whoever received it: the sandbox's signed route
 * (functions/transactions), Asaas's webhook route (functions/provider-connections) and the
 * subscription job that asks the provider about a debit whose notification never came
 * (shared/jobs): the container's deps with the request's log.
 */
export function notificationDeps(deps: Deps, log: Logger) {
  return {
    ...deps,
    onScheduleError: (error: unknown) => log.error('could not schedule a subscription job', { error }),
    log,
  };
}
