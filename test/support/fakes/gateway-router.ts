import type { GatewayRouter, PaymentProvider } from '#shared/domain/ports';
import type { Environment } from '#shared/domain/tenant';

/** Routes each environment to the provider a test gave it. */
export class FakeGatewayRouter implements GatewayRouter {
  constructor(private readonly providers: Record<Environment, PaymentProvider>) {}
  forEnvironment(environment: Environment): PaymentProvider {
    return this.providers[environment];
  }
  byName(provider: string): PaymentProvider | undefined {
    return Object.values(this.providers).find((p) => p.provider === provider);
  }
}
