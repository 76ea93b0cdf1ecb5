/** Moved to the ports (shared/domain/ports/); re-exported until every caller imports from there. */
export type { TransactionPage, TransactionQuery, TransactionRepository } from '#shared/domain/ports';
