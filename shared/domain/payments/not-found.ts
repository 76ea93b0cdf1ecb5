// Named by the test helpers' route table, which every cold start loads: apart from sandbox-helpers.ts (zod).
export const PIX_AUTHORIZATION_NOT_FOUND = 'Pix authorization not found';
