import * as z from 'zod';
import type { SandboxGateway } from '#shared/adapters/sandbox-gateway/sandbox-gateway';
import { boletoPdf } from '#shared/domain/payments/pdf';
import { cancelTransaction } from '#shared/domain/transactions/manage';
import { STATUSES, toTransactionView } from '#shared/domain/transactions/transaction';
import { NotFoundError } from '#shared/errors';
import { tenantOf } from '#shared/http/tenant';
import type { HttpRequest } from '#shared/http/types';
import { looksLikeUuid } from '#shared/ids';
import { parseInput } from '#shared/validation';
import { manageDeps } from './transactions';

const listQuery = z.object({
  status: z.enum(STATUSES).optional(),
  paymentMethod: z.enum(['pix', 'boleto', 'creditcard']).optional(),
  createdBefore: z.iso
    .datetime({ offset: true, error: 'createdBefore must be an ISO 8601 timestamp' })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional(),
});

/** GET /api/v1/charges: cursor pages, newest first; each item carries its uuid. */
export async function listCharges(req: HttpRequest) {
  const q = parseInput(listQuery, req.query);
  const page = await req.deps.repos.transactions.list(tenantOf(req), {
    page: 1,
    limit: q.limit,
    status: q.status,
    paymentMethod: q.paymentMethod,
    createdBefore: q.createdBefore ? new Date(q.createdBefore).toISOString() : undefined,
    cursor: q.cursor,
    countTotal: false,
  });
  return {
    statusCode: 200,
    body: {
      data: page.items.map(toTransactionView),
      nextCursor: page.cursor ?? null,
      hasMore: Boolean(page.cursor),
    },
  };
}

export async function cancelCharge(req: HttpRequest) {
  const { uuid } = req.pathParams;
  const t = looksLikeUuid(uuid) ? await req.deps.repos.transactions.findByUuid(uuid.toLowerCase()) : null;
  await cancelTransaction(manageDeps(req), tenantOf(req), t);
  return { statusCode: 200, body: { canceled: true } };
}

/** The sandbox provider's boleto document (a real PDF with the barcode). */
export async function sandboxBoletoPdf(req: HttpRequest) {
  const raw = req.pathParams.gatewayPayId;
  const sandbox = req.deps.payments.forEnvironment('test') as SandboxGateway;
  const valid = /^\d{1,15}$/.test(raw) && sandbox.validPdfToken(Number(raw), req.query.token);
  const charge = valid ? await sandbox.charge(Number(raw)) : null;
  if (!charge?.boleto) throw new NotFoundError('Boleto not found');
  const pdf = boletoPdf({
    digitableLine: charge.boleto.formattedLine,
    barcode: charge.boleto.barcode,
    amountCentavos: charge.amount,
    dueDate: charge.boleto.dueDate,
    payerName: charge.boleto.payerName,
    beneficiaryName: charge.boleto.beneficiary,
    documentNumber: String(charge.gatewayPayId),
  });
  return { statusCode: 200, binary: { contentType: 'application/pdf', data: pdf } };
}
