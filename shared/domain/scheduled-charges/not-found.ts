/**
 * Kept apart from charge.ts and pay-link.ts (which load the charge issuing chain and its zod
 * schemas) so that the route tables can name them without loading those at cold start.
 */
export const SCHEDULED_CHARGE_NOT_FOUND = 'Scheduled charge not found';
export const PAY_LINK_NOT_FOUND = 'Cobrança não encontrada';
