/**
 * Every entity definition of the single table, in one list: docs/data-model.md's index table is
 * generated from it (`npm run data-model`) and the tests hold the table and the document to it.
 */
import { affiliationEntity } from './affiliation';
import { apiKeyEntity } from './api-key';
import { checkoutSessionEntity } from './checkout-session';
import { customerProfileEntity } from './customer';
import { outboxEventEntity, webhookDeliveryEntity } from './event-log';
import { planEntity } from './installment-plan';
import { paymentMethodEntity } from './payment-method';
import { portalConfigEntity } from './portal-config';
import { portalSessionEntity } from './portal-session';
import { priceEntity } from './price';
import { productCopyEntity, productEntity } from './product';
import { providerConnectionEntity } from './provider-connection';
import { reconciliationEntity } from './reconciliation';
import { sandboxChargeEntity } from './sandbox-charge';
import { attemptEntity, scheduledChargeEntity } from './scheduled-charge';
import { subscriptionEntity } from './subscription';
import { transactionEntity } from './transaction';
import { webhookEndpointEntity } from './webhook-endpoint';

export const ENTITY_DEFINITIONS = [
  apiKeyEntity,
  webhookEndpointEntity,
  outboxEventEntity,
  webhookDeliveryEntity,
  productEntity,
  productCopyEntity,
  portalConfigEntity,
  affiliationEntity,
  transactionEntity,
  customerProfileEntity,
  checkoutSessionEntity,
  paymentMethodEntity,
  priceEntity,
  subscriptionEntity,
  scheduledChargeEntity,
  attemptEntity,
  planEntity,
  portalSessionEntity,
  sandboxChargeEntity,
  providerConnectionEntity,
  reconciliationEntity,
] as const;
