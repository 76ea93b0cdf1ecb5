/**
 * Kept apart from products.ts (which builds zod schemas at load) so that route tables can name it
 * without loading the product use cases at cold start.
 */
export const PRODUCT_NOT_FOUND = 'Product not found';
