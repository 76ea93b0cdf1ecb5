import { ConditionFailedError } from '#shared/adapters/dynamodb/table';
import type { ChargeResult } from '#shared/domain/payments/gateway';
import type {
  ProviderChargeLink,
  ProviderLinks,
  ProviderPixAuthorization,
} from '#shared/domain/ports/provider-connections';

/** ProviderLinks in memory, with the DynamoDB adapter's conditional reservation. */
export class MemoryProviderLinks implements ProviderLinks {
  readonly customers = new Map<string, string>();
  readonly charges = new Map<number, ProviderChargeLink>();
  readonly results = new Map<string, ChargeResult>();
  readonly pixAuthorizations = new Map<string, ProviderPixAuthorization>();
  readonly conciliations = new Map<string, string>();

  async customerId(sellerId: number, account: string, document: string) {
    return this.customers.get(`${sellerId}#${account}#${document}`) ?? null;
  }
  async saveCustomer(sellerId: number, account: string, document: string, customerId: string) {
    this.customers.set(`${sellerId}#${account}#${document}`, customerId);
  }
  async reserveCharge(link: ProviderChargeLink) {
    if (this.charges.has(link.gatewayPayId)) throw new ConditionFailedError();
    this.charges.set(link.gatewayPayId, link);
  }
  async linkCharge(gatewayPayId: number, providerPaymentId: string) {
    const link = this.charges.get(gatewayPayId);
    if (link) this.charges.set(gatewayPayId, { ...link, providerPaymentId });
  }
  async charge(gatewayPayId: number) {
    return this.charges.get(gatewayPayId) ?? null;
  }
  async replayed(sellerId: number, key: string) {
    return this.results.get(`${sellerId}#${key}`) ?? null;
  }
  readonly reservedKeys = new Map<string, number>();
  async reserveKey(sellerId: number, key: string, gatewayPayId: number) {
    const first = this.reservedKeys.get(`${sellerId}#${key}`);
    if (first !== undefined) return first;
    this.reservedKeys.set(`${sellerId}#${key}`, gatewayPayId);
    return gatewayPayId;
  }
  async remember(sellerId: number, key: string, result: ChargeResult) {
    this.results.set(`${sellerId}#${key}`, result);
  }
  readonly cardIps = new Map<string, string>();
  async rememberCardIp(sellerId: number, tokenHash: string, ip: string) {
    this.cardIps.set(`${sellerId}#${tokenHash}`, ip);
  }
  async cardIp(sellerId: number, tokenHash: string) {
    return this.cardIps.get(`${sellerId}#${tokenHash}`) ?? null;
  }
  async savePixAuthorization(a: ProviderPixAuthorization) {
    if (this.pixAuthorizations.has(a.authorizationId) || this.conciliations.has(a.conciliationId))
      throw new ConditionFailedError();
    this.pixAuthorizations.set(a.authorizationId, { ...a });
    this.conciliations.set(a.conciliationId, a.authorizationId);
  }
  async pixAuthorization(authorizationId: string) {
    const a = this.pixAuthorizations.get(authorizationId);
    return a ? { ...a } : null;
  }
  async pixAuthorizationOfConciliation(conciliationId: string) {
    const id = this.conciliations.get(conciliationId);
    return id ? this.pixAuthorization(id) : null;
  }
  async setPixAuthorizationStatus(authorizationId: string, status: ProviderPixAuthorization['status']) {
    const a = this.pixAuthorizations.get(authorizationId);
    if (a && a.status !== 'revoked') this.pixAuthorizations.set(authorizationId, { ...a, status });
  }
}
