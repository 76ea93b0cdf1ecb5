import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import type { SandboxAction } from '#shared/domain/payments/gateway';
import { boletoPdf } from '#shared/domain/payments/pdf';
import { qrCodeModules } from '#shared/domain/payments/qr-image';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError, ValidationError } from '#shared/errors';
import { formatBrl } from '#shared/money';
import { reaisField } from '#shared/money-field';
import { getTransaction } from './manage';
import { BOLETO_NOT_FOUND } from './not-found';
import { toTransactionView } from './transaction';

export const simulateSchema = z
  .object({
    failureCode: z.string().min(1).max(100).optional(),
    /** pay of a boleto: what the bank cleared, in Reais (fine and interest above face value). */
    paidAmount: reaisField('paidAmount').optional(),
    /** false: the bank settles the charge but its notification never arrives (mark-paid's case). */
    notify: z.boolean({ error: 'notify must be true or false' }).optional(),
    /** pay of a boleto: `pix` pays the boleto híbrido by its pix QR code (default: the boleto). */
    paidWith: z.enum(['pix', 'boleto']).optional(),
  })
  .strict();
export type SimulateInput = z.output<typeof simulateSchema>;

/**
 * The sandbox pays, fails or charges back its own charge and notifies the service through the
 * signed webhook route, so a sandbox payment walks the same path a real provider's would.
 * Answers the transaction as it is afterwards.
 */
export async function simulateSandboxPayment(
  deps: Pick<Deps, 'transactions' | 'sandbox'>,
  tenant: Tenant,
  id: string,
  action: SandboxAction,
  input: SimulateInput,
) {
  const t = await getTransaction(deps, tenant, id);
  if (input.paidAmount !== undefined) {
    if (action !== 'pay' || t.paymentMethod !== 'boleto')
      throw new ValidationError(['paidAmount is only accepted when paying a boleto']);
    if (input.paidAmount < t.value)
      throw new ValidationError([
        `paidAmount must be at least the boleto's face value (${formatBrl(t.value)})`,
      ]);
  }
  if (input.paidWith !== undefined && action !== 'pay')
    throw new ValidationError(['paidWith is only accepted when paying']);
  await deps.sandbox.simulate(t.gatewayPayId, action, input.failureCode, {
    paidAmount: input.paidAmount,
    notify: input.notify,
    ...(input.paidWith ? { paidWith: input.paidWith } : {}),
  });
  return toTransactionView(await getTransaction(deps, tenant, id));
}

/**
 * The sandbox provider's boleto document (a real PDF with the barcode), naming the seller as its
 * business profile does (name as the beneficiary, brand colour). Its link carries an HMAC token: a
 * wrong token answers exactly like a missing boleto.
 */
export async function sandboxBoletoDocument(
  deps: Pick<Deps, 'sandbox' | 'team'>,
  gatewayPayId: number,
  token: string | undefined,
): Promise<Buffer> {
  const charge = (await deps.sandbox.validPdfToken(gatewayPayId, token))
    ? await deps.sandbox.charge(gatewayPayId)
    : null;
  if (!charge?.boleto) throw new NotFoundError(BOLETO_NOT_FOUND);
  const [profile] = await deps.team.profiles([charge.sellerId]);
  return boletoPdf({
    digitableLine: charge.boleto.formattedLine,
    barcode: charge.boleto.barcode,
    amountCentavos: charge.amount,
    dueDate: charge.boleto.dueDate,
    payerName: charge.boleto.payerName,
    beneficiaryName: profile?.name || charge.boleto.beneficiary,
    brandColor: profile?.brandColor ?? null,
    documentNumber: String(charge.gatewayPayId),
    ...(charge.boleto.pixQrCode
      ? {
          pixQr: { payload: charge.boleto.pixQrCode, modules: await qrCodeModules(charge.boleto.pixQrCode) },
        }
      : {}),
  });
}

export { BOLETO_NOT_FOUND };
