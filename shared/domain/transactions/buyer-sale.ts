import { type CardClient, type CardGuardDeps, guardCardAttempt } from '#shared/domain/card-testing/guard';
import { BUYER_DECLINE_REASON } from '#shared/domain/payments/cards';
import { namesLateCharges } from '#shared/domain/payments/late-charge-settings';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { ValidationError } from '#shared/errors';
import { parseInput } from '#shared/validation';
import {
  type CreateDeps,
  type CreateTransactionInput,
  createSale,
  createTransaction,
  createTransactionSchema,
} from './create';
import { type Transaction, toTransactionView } from './transaction';

/** Who calls POST /api/transactions: a seller's API key (its tenant), or nobody, and from where. */
export interface SaleCaller {
  tenant?: Tenant;
  client: CardClient;
}

const declined = (t: Transaction) => t.status === 'denied' && t.failureCode !== 'processing_error';

/**
 * POST /api/transactions. The product's own seller (an API key of the product's tenant) sells as
 * ever and reads the exact reason of a decline. Anyone else is a buyer on the product's payment
 * link: a card goes through the card-testing guard, and a decline answers `card_declined`
 * whatever the issuer said (the transaction keeps the reason for the seller and the events).
 */
export async function sellAs(
  deps: CreateDeps & CardGuardDeps,
  request: CreateTransactionInput,
  caller: SaleCaller,
) {
  const input = parseInput(createTransactionSchema, request);
  if (namesLateCharges(input)) {
    // A buyer may not set the terms of their own boleto (docs/decisions: trust model).
    const product = await deps.products.findByUuid(input.productId.toLowerCase());
    if (product && !(caller.tenant && sameTenant(caller.tenant, product.tenant)))
      throw new ValidationError([
        "fine, interest and discounts are set by the product's seller only (call with its API key)",
      ]);
  }
  if (input.paymentMethod !== 'creditcard' || !input.card) return createTransaction(deps, request);
  const product = await deps.products.findByUuid(input.productId.toLowerCase());
  if (!product || (caller.tenant && sameTenant(caller.tenant, product.tenant)))
    return createTransaction(deps, request);
  const t = await guardCardAttempt(
    deps,
    {
      tenant: product.tenant,
      on: { scope: 'link', id: product.uuid },
      card: input.card,
      client: caller.client,
    },
    () => createSale(deps, request),
    declined,
  );
  const view = toTransactionView(t);
  return declined(t) ? { ...view, failureCode: 'card_declined', failureReason: BUYER_DECLINE_REASON } : view;
}
