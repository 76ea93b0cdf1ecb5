/** The renderer's files the reference page serves (functions/docs/assets.ts). */
export const REFERENCE_ASSETS = [
  'swagger-ui-bundle.js',
  'swagger-ui.css',
  'reference.js',
  'reference.css',
] as const;
