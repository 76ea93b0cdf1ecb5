/**
 * Every entity definition of the single table, in one list: docs/data-model.md's index table is
 * generated from it (`npm run data-model`) and the tests hold the table and the document to it.
 */
import { affiliationEntity } from './affiliation';
import { apiKeyEntity, apiKeyNameEntity, apiKeyPointerEntity } from './api-key';
import { checkoutSessionEntity } from './checkout-session';
import { customerProfileEntity } from './customer';
import {
  customerEmailEntity,
  customerGlobalEmailEntity,
  customerGlobalEntity,
  customerIdEntity,
  customerOverdueEntity,
  customerSellerEntity,
} from './customer-links';
import { outboxEventEntity, webhookDeliveryEntity } from './event-log';
import { idempotencyEntity } from './idempotency';
import { planEntity } from './installment-plan';
import { localLoginEntity, localSessionEntity } from './local-identity';
import { mailLogEntity, sandboxMailEntity, sandboxMailToEntity } from './mail';
import { migrationFormatEntity } from './migration-format';
import { paymentAttemptEntity } from './payment-attempt';
import { paymentMethodEntity } from './payment-method';
import { portalConfigEntity } from './portal-config';
import { portalSessionEntity } from './portal-session';
import { priceEntity } from './price';
import { productCopyEntity, productEntity } from './product';
import { providerConnectionEntity } from './provider-connection';
import { reconciliationEntity } from './reconciliation';
import { customerRemindersEntity, optOutEntity, sellerRemindersEntity } from './reminder-settings';
import { requestLogEntity } from './request-log';
import { sandboxChargeEntity } from './sandbox-charge';
import { attemptEntity, scheduledChargeEntity } from './scheduled-charge';
import { sellerEntity, sellerLoginEntity } from './seller';
import { subscriptionEntity } from './subscription';
import { teamInvitationEntity, teamInvitationTokenEntity, teamMemberEntity } from './team';
import { testClockEntity } from './test-clock';
import { transactionEntity } from './transaction';
import { webhookEndpointEntity } from './webhook-endpoint';

export const ENTITY_DEFINITIONS = [
  testClockEntity,
  sellerEntity,
  sellerLoginEntity,
  teamMemberEntity,
  teamInvitationEntity,
  teamInvitationTokenEntity,
  apiKeyEntity,
  apiKeyPointerEntity,
  apiKeyNameEntity,
  webhookEndpointEntity,
  outboxEventEntity,
  webhookDeliveryEntity,
  requestLogEntity,
  productEntity,
  productCopyEntity,
  portalConfigEntity,
  affiliationEntity,
  transactionEntity,
  paymentAttemptEntity,
  customerProfileEntity,
  customerGlobalEntity,
  customerEmailEntity,
  customerGlobalEmailEntity,
  customerSellerEntity,
  customerIdEntity,
  customerOverdueEntity,
  checkoutSessionEntity,
  paymentMethodEntity,
  priceEntity,
  subscriptionEntity,
  scheduledChargeEntity,
  attemptEntity,
  planEntity,
  portalSessionEntity,
  sandboxMailEntity,
  sandboxMailToEntity,
  mailLogEntity,
  idempotencyEntity,
  migrationFormatEntity,
  localLoginEntity,
  localSessionEntity,
  sandboxChargeEntity,
  providerConnectionEntity,
  reconciliationEntity,
  sellerRemindersEntity,
  customerRemindersEntity,
  optOutEntity,
] as const;
