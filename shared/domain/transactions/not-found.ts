/**
 * Kept apart from transaction.ts and sandbox.ts (which load the affiliate, product and event
 * modules, and the boleto renderer) so that route tables can name them without loading those at
 * cold start.
 */
export const TRANSACTION_NOT_FOUND = 'Transação não encontrada';
export const BOLETO_NOT_FOUND = 'Boleto not found';
