import * as z from 'zod';
import type { SandboxAction } from '#shared/domain/payments/gateway';
import { boletoPdf } from '#shared/domain/payments/pdf';
import type { SandboxOperations, TransactionRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import { getTransaction } from './manage';
import { toTransactionView } from './transaction';

export const simulateSchema = z.object({ failureCode: z.string().min(1).max(100).optional() }).strict();

/**
 * The sandbox pays, fails or charges back its own charge and notifies the service through the
 * signed webhook route, so a sandbox payment walks the same path a real provider's would.
 * Answers the transaction as it is afterwards.
 */
export async function simulateSandboxPayment(
  deps: { transactions: TransactionRepository; sandbox: SandboxOperations },
  tenant: Tenant,
  id: string,
  action: SandboxAction,
  input: z.output<typeof simulateSchema>,
) {
  const t = await getTransaction(deps, tenant, id);
  await deps.sandbox.simulate(t.gatewayPayId, action, input.failureCode);
  return toTransactionView(await getTransaction(deps, tenant, id));
}

/**
 * The sandbox provider's boleto document (a real PDF with the barcode). Its link carries an HMAC
 * token: a wrong token answers exactly like a missing boleto.
 */
export async function sandboxBoletoDocument(
  deps: { sandbox: SandboxOperations },
  gatewayPayId: number,
  token: string | undefined,
): Promise<Buffer> {
  const charge = deps.sandbox.validPdfToken(gatewayPayId, token)
    ? await deps.sandbox.charge(gatewayPayId)
    : null;
  if (!charge?.boleto) throw new NotFoundError(BOLETO_NOT_FOUND);
  return boletoPdf({
    digitableLine: charge.boleto.formattedLine,
    barcode: charge.boleto.barcode,
    amountCentavos: charge.amount,
    dueDate: charge.boleto.dueDate,
    payerName: charge.boleto.payerName,
    beneficiaryName: charge.boleto.beneficiary,
    documentNumber: String(charge.gatewayPayId),
  });
}

export const BOLETO_NOT_FOUND = 'Boleto not found';
