import type { Clock, GatewayHealth, PaymentGateway } from '#shared/domain/ports';

/**
 * The sandbox payment gateway: test-environment tenants always use it and it never reaches a
 * real provider. It runs in-process, so it is reachable whenever the function runs.
 */
export class SandboxGateway implements PaymentGateway {
  readonly provider = 'sandbox';
  constructor(private readonly clock: Clock) {}

  async health(): Promise<GatewayHealth> {
    const started = this.clock.now().getTime();
    return { status: 'healthy', provider: this.provider, latencyMs: this.clock.now().getTime() - started };
  }
}
