/**
 * Kept apart from pay-link.ts (which loads the charge issuing chain and its zod schemas) so that
 * the charge-payments route table can name it without loading them at cold start.
 */
export const PAY_LINK_NOT_FOUND = 'Cobrança não encontrada';
