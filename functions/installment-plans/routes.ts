import { BOOKLET_NOT_FOUND, bookletLinkResponse } from '#shared/domain/installment-plans/booklet';
import { INSTALLMENT_PLAN_NOT_FOUND } from '#shared/domain/installment-plans/plan';
import {
  installmentPlanListResponse,
  installmentPlanResponse,
  installmentResponse,
} from '#shared/domain/installment-plans/responses';
import {
  createInstallmentPlanSchema,
  installmentPathSchema,
  listInstallmentPlansQuerySchema,
  planPathSchema,
  reissueSchema,
} from '#shared/domain/installment-plans/schemas';
import { type AuthScheme, defineRoutes } from '#shared/http/types';
import { bookletTokenParam, emptyActionBody } from './shapes';

const auth: AuthScheme[] = ['apiKey', 'jwt'];
const base = '/api/v1/installment-plans';
const plan = `${base}/{uuid}`;
const installment = `${plan}/installments/{number}`;
/** A plan by its uuid; another seller's or environment's answers like a missing one. */
const byPlan = { auth, notFound: INSTALLMENT_PLAN_NOT_FOUND } as const;
const noBody = emptyActionBody;
const PDF = {
  contentType: 'application/pdf',
  description: 'The booklet: one slip per installment, three to an A4 page',
};
const STATE_RULE =
  '409 `Installment plan cannot be <action> in status <status>` when the plan is completed or canceled (docs/decisions.md, "Installment plans (issue 14)").';

export const installmentPlanRoutes = defineRoutes('installment-plans', [
  {
    operationId: 'createInstallmentPlan',
    method: 'POST',
    path: base,
    auth,
    idempotent: true,
    summary: 'Create a carnê: 2..12 monthly boletos, only installment 1 registered now',
    description:
      '`productId` (uuid; the product must have carne.enabled), `customerId` (numeric), `installments` ' +
      '(2..12 and at most the product’s carne.maxInstallments), `firstDueDate` (default today; today .. ' +
      'today + 90 days, Sao Paulo), `affiliateId` (an active affiliation on the product). The factor for ' +
      'the count is frozen as `fator`; installmentAmount = round_half_up(baseValue × fator / installments). ' +
      '400 naming the field; 404 `Product not found`, `Customer not found`; 409 `An identical installment ' +
      'plan was just created for this customer` (same customer, product, installments, firstDueDate and ' +
      'affiliate within 10 minutes). Supports X-Idempotency-Key (24 h). Webhooks installment_plan.created, ' +
      'installment_plan.installment_issued.',
    request: { body: createInstallmentPlanSchema },
    errors: [404, 409],
    responses: { 201: installmentPlanResponse },
  },
  {
    operationId: 'listInstallmentPlans',
    method: 'GET',
    path: base,
    auth,
    summary: 'List installment plans, newest first',
    description:
      '`customerId`, `status` (repeatable: pending_activation, active, completed, canceled), `page`, `limit` (1..100, default 20).',
    request: { query: listInstallmentPlansQuerySchema },
    responses: { 200: installmentPlanListResponse },
  },
  {
    ...byPlan,
    operationId: 'getInstallmentPlan',
    method: 'GET',
    path: plan,
    summary: 'Retrieve an installment plan with every installment (due date, status, boleto line and PDF)',
    request: { path: planPathSchema },
    responses: { 200: installmentPlanResponse },
  },
  {
    ...byPlan,
    operationId: 'markInstallmentPaid',
    method: 'POST',
    path: `${installment}/mark-paid`,
    summary: 'Record a paid boleto whose notification did not arrive (the provider is asked first)',
    description:
      'No body. Paid at the provider: the installment is paid at its face value (the transaction settles, ' +
      'the affiliate’s commission is recorded). 409 `The provider does not report this installment’s ' +
      'boleto as paid`, or an installment without a boleto or closed; 503 `The payment provider is ' +
      'unavailable; nothing was changed`. Already paid: 200 unchanged. 404 `Installment not found`.',
    request: { path: installmentPathSchema, body: noBody, optionalBody: true },
    errors: [409, 503],
    responses: { 200: installmentResponse },
  },
  {
    ...byPlan,
    operationId: 'reissueInstallment',
    method: 'POST',
    path: `${installment}/reissue`,
    summary: "Second copy of an unpaid installment's boleto",
    description:
      '`dueDate` (default the later of today and the installment’s due date; today .. today + 90 days). ' +
      'The old boleto becomes unpayable; reissueCount + 1; reminders start again. 409 when the installment ' +
      `has no boleto or is paid or canceled. ${STATE_RULE}`,
    request: {
      path: installmentPathSchema,
      body: reissueSchema,
      optionalBody: true,
    },
    errors: [409],
    responses: { 200: installmentPlanResponse },
  },
  {
    ...byPlan,
    operationId: 'cancelInstallmentPlan',
    method: 'POST',
    path: `${plan}/cancel`,
    summary: 'Cancel a carnê: unpaid boletos become unpayable',
    description: `Open installments are canceled. Webhook installment_plan.canceled (cancelReason seller). ${STATE_RULE}`,
    request: { path: planPathSchema, body: noBody, optionalBody: true },
    errors: [409],
    responses: { 200: installmentPlanResponse },
  },
  {
    ...byPlan,
    operationId: 'getInstallmentPlanBooklet',
    method: 'GET',
    path: `${plan}/booklet`,
    summary: 'The whole carnê as one printable PDF booklet',
    description:
      'One slip per installment, three to an A4 page (ceil(installments / 3) pages), each naming the seller ' +
      '(beneficiary) and the customer (payer) with its due date and amount: an issued boleto with its linha ' +
      'digitável and barcode; an installment not issued yet (registered 10 days before its due date) says so; ' +
      'a paid or canceled one says so, without a barcode. Any status.',
    request: { path: planPathSchema },
    responses: { 200: PDF },
  },
  {
    ...byPlan,
    operationId: 'shareInstallmentPlanBooklet',
    method: 'POST',
    path: `${plan}/booklet-link`,
    summary: "The booklet's public link for the customer (made once, then the same until revoked)",
    description:
      '`url` is `/carne/{token}`: an unguessable token, never the seller’s key, that opens the booklet ' +
      `without a session. ${STATE_RULE.replace('completed or canceled', 'canceled')}`,
    request: { path: planPathSchema, body: noBody, optionalBody: true },
    errors: [409],
    responses: { 200: bookletLinkResponse },
  },
  {
    ...byPlan,
    operationId: 'revokeInstallmentPlanBooklet',
    method: 'DELETE',
    path: `${plan}/booklet-link`,
    summary: "Revoke the booklet's public link: it answers 404 from now on",
    request: { path: planPathSchema },
    responses: { 200: bookletLinkResponse },
  },
  {
    operationId: 'getPublicBooklet',
    method: 'GET',
    path: '/carne/{token}',
    auth: [],
    summary: 'The printable carnê booklet on its public link (no session)',
    description:
      'The same PDF as the seller’s. A revoked link, a canceled carnê’s, a malformed or unknown token all answer ' +
      `404 \`${BOOKLET_NOT_FOUND}\`.`,
    notFound: BOOKLET_NOT_FOUND,
    request: { path: bookletTokenParam },
    errors: [404],
    responses: { 200: PDF },
  },
]);
