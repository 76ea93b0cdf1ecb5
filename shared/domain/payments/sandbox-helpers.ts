import * as z from 'zod';
import { PAYMENT_METHOD_NOT_FOUND } from '#shared/domain/payment-methods/payment-method';
import type { PaymentMethodRepository, SandboxOperations } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import type { Assert, Equals } from '#shared/domain/type-assert';
import { NotFoundError } from '#shared/errors';
import type { PixAuthorizationStatus } from './gateway';
import { PIX_AUTHORIZATION_NOT_FOUND } from './not-found';

/**
 * Sandbox test helpers for recurring charges: script how a saved card answers its later charges,
 * and play the buyer's bank on a Pix Automático authorization. Test-environment data only (the
 * routes are testOnly and a test tenant's provider is always the sandbox).
 */

export { PIX_AUTHORIZATION_NOT_FOUND };
/** What a saved card declines with when the helper names no code (Stripe's generic decline). */
export const DEFAULT_DECLINE_CODE = 'card_declined';
/** What a saved card errors with when the helper names no code. */
export const DEFAULT_ERROR_CODE = 'processing_error';

export const cardOutcomeSchema = z
  .object({
    outcome: z
      .enum(['approved', 'declined', 'error'])
      .describe('How the saved card answers its charges from now on (an expired card still declines)'),
    failureCode: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, 'failureCode must be a snake_case code')
      .optional()
      .describe(
        `The failure code of a decline (default ${DEFAULT_DECLINE_CODE}) or error (default ${DEFAULT_ERROR_CODE})`,
      ),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.outcome === 'approved' && body.failureCode !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['failureCode'],
        message: 'failureCode is only for a declined or error outcome',
      });
  });

export interface SandboxCardOutcomeView {
  paymentMethodId: number;
  outcome: 'approved' | 'declined' | 'error';
  failureCode: string | null;
}

/**
 * Makes a saved card (a payment method of this tenant; another tenant's is not found) approve,
 * decline or error on every later charge, until set again.
 */
export async function setSandboxCardOutcome(
  deps: { paymentMethods: Pick<PaymentMethodRepository, 'get'>; sandbox: SandboxOperations },
  tenant: Tenant,
  id: string,
  input: z.output<typeof cardOutcomeSchema>,
): Promise<SandboxCardOutcomeView> {
  const pm = await deps.paymentMethods.get(tenant, Number(id));
  if (!pm) throw new NotFoundError(PAYMENT_METHOD_NOT_FOUND);
  const failureCode =
    input.outcome === 'approved'
      ? null
      : (input.failureCode ?? (input.outcome === 'declined' ? DEFAULT_DECLINE_CODE : DEFAULT_ERROR_CODE));
  await deps.sandbox.setSavedCardOutcome(
    tenant,
    pm.token,
    failureCode === null
      ? { outcome: 'approved' }
      : { outcome: input.outcome as 'declined' | 'error', failureCode },
  );
  return { paymentMethodId: pm.id, outcome: input.outcome, failureCode };
}

export interface SandboxPixAuthorizationView {
  id: string;
  status: PixAuthorizationStatus;
}

/**
 * The buyer's bank, for tests: `approve` makes a pending authorization active without paying its
 * first pix (409 for a revoked one), `revoke` revokes it; another tenant's is not found.
 */
export async function setSandboxPixAuthorization(
  deps: { sandbox: SandboxOperations },
  tenant: Tenant,
  authorizationId: string,
  action: 'approve' | 'revoke',
): Promise<SandboxPixAuthorizationView> {
  const status = await deps.sandbox.setPixAuthorization(tenant, authorizationId, action);
  return { id: authorizationId, status };
}

export const sandboxCardOutcomeResponse = z.lazy(() =>
  z
    .object({
      paymentMethodId: z.number().int(),
      outcome: z.enum(['approved', 'declined', 'error']),
      failureCode: z.string().nullable().describe('null when approved'),
    })
    .meta({ id: 'SandboxCardOutcome', description: 'How the sandbox answers the saved card from now on' }),
);

export const sandboxPixAuthorizationResponse = z.lazy(() =>
  z
    .object({
      id: z.string().describe('The authorization id (pixauth_…) of the first pix charge'),
      status: z.enum(['pending', 'active', 'revoked']),
    })
    .meta({ id: 'SandboxPixAuthorization', description: 'A sandbox Pix Automático authorization' }),
);

type _Card = Assert<Equals<z.output<typeof sandboxCardOutcomeResponse>, SandboxCardOutcomeView>>;
type _Pix = Assert<Equals<z.output<typeof sandboxPixAuthorizationResponse>, SandboxPixAuthorizationView>>;
