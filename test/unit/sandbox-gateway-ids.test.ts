import { describe, expect, it } from 'vitest';
import { ConditionFailedError, type Item, type Table } from '#shared/adapters/dynamodb/table';
import { randomGatewayPayId, SandboxGateway } from '#shared/adapters/sandbox-gateway/sandbox-gateway';
import type { ChargeRequest } from '#shared/domain/payments/gateway';

/** A table that keeps puts by pk and refuses an existing pk as the conditional write does. */
function fakeTable() {
  const items = new Map<string, Item>();
  const table = {
    async put(item: Item, options: { ConditionExpression?: string } = {}) {
      const pk = String(item.pk);
      if (options.ConditionExpression === 'attribute_not_exists(pk)' && items.has(pk)) {
        throw new ConditionFailedError([0]);
      }
      items.set(pk, item);
    },
  };
  return { items, table: table as unknown as Table };
}

const request = (method: ChargeRequest['method']): ChargeRequest => ({
  tenant: { sellerId: 1, environment: 'test' },
  transactionId: 7,
  method,
  amountCentavos: 10_000,
  installments: 1,
  description: 'Curso',
  customer: { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com' },
});

function gateway(table: Table, randomId?: () => number) {
  return new SandboxGateway({
    table,
    clock: { now: () => new Date('2026-03-10T12:00:00Z') },
    notificationKey: { key: async () => new Uint8Array(32).fill(1) },
    pdfKey: { key: async () => new Uint8Array(32).fill(2) },
    publicBaseUrl: 'http://127.0.0.1:3000',
    randomId,
  });
}

describe('sandbox gateway ids', () => {
  it('draws uniform 15-digit safe integers from the CSPRNG', () => {
    const ids = Array.from({ length: 2_000 }, randomGatewayPayId);
    for (const id of ids) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(id).toBeGreaterThanOrEqual(100_000_000_000_000);
      expect(id).toBeLessThan(1_000_000_000_000_000);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Every leading digit 1..9 appears: the whole range is used, not a corner of it.
    expect(new Set(ids.map((id) => String(id)[0])).size).toBe(9);
  });

  it('draws again when the id is taken, and the record and the boleto carry the new id', async () => {
    const { items, table } = fakeTable();
    const draws = [111_111_111_111_111, 111_111_111_111_111, 222_222_222_222_222];
    const sandbox = gateway(table, () => draws.shift() as number);
    const first = await sandbox.createCharge(request('pix'));
    const second = await sandbox.createCharge(request('boleto'));
    expect(first.gatewayPayId).toBe(111_111_111_111_111);
    expect(second.gatewayPayId).toBe(222_222_222_222_222);
    expect([...items.keys()]).toEqual(['SANDBOX#111111111111111', 'SANDBOX#222222222222222']);
    expect(items.get('SANDBOX#222222222222222')?.gatewayPayId).toBe(222_222_222_222_222);
    if (second.outcome !== 'pending' || !second.boleto) throw new Error('expected a boleto');
    expect(second.boleto.pdfUrl).toContain('/api/sandbox/boletos/222222222222222/pdf?token=');
    expect(
      await sandbox.validPdfToken(
        222_222_222_222_222,
        new URL(second.boleto.pdfUrl).searchParams.get('token') ?? '',
      ),
    ).toBe(true);
  });

  it('gives up after five collisions in a row rather than loop', async () => {
    const { table } = fakeTable();
    const sandbox = gateway(table, () => 333_333_333_333_333);
    await sandbox.createCharge(request('pix'));
    await expect(sandbox.createCharge(request('pix'))).rejects.toBeInstanceOf(ConditionFailedError);
  });
});
