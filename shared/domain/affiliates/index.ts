/**
 * What sales (checkout sessions, carnês, transactions) use from affiliates: the active
 * affiliation of an affiliate on a product, and the exact commission split of a sale.
 */
export { AFFILIATION_NOT_FOUND, type Affiliation } from './affiliation';
export { findActiveAffiliation, requireActiveAffiliation } from './affiliations';
export {
  affiliateSale,
  commissionReversed,
  commissionSplit,
  type SaleReturns,
  type TransactionAffiliate,
  toAffiliateCommissionView,
  toTransactionAffiliateView,
} from './commission';
export { affiliateCommissionResponse, transactionAffiliateResponse } from './responses';
