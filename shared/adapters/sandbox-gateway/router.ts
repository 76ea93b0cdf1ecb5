import type { GatewayRouter, PaymentProvider } from '#shared/domain/ports';
import type { SandboxGateway } from './sandbox-gateway';

/** Test tenants always get the sandbox: a sandbox key can never reach a real provider. */
export function createGatewayRouter(sandbox: SandboxGateway, live: PaymentProvider): GatewayRouter {
  const byName = new Map<string, PaymentProvider>([
    [sandbox.provider, sandbox],
    [live.provider, live],
  ]);
  return {
    forEnvironment: (environment) => (environment === 'test' ? sandbox : live),
    byName: (name) => byName.get(name),
  };
}
