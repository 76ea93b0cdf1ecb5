/**
 * What sales (checkout sessions, carnês, transactions) use from affiliates: the active
 * affiliation of an affiliate on a product, and the exact commission split of a sale.
 */
export { AFFILIATION_NOT_FOUND, type Affiliation } from './affiliation';
export { findActiveAffiliation, requireActiveAffiliation } from './affiliations';
export {
  affiliateSale,
  commissionSplit,
  type TransactionAffiliate,
  toTransactionAffiliateView,
} from './commission';
export { transactionAffiliateResponse } from './responses';
