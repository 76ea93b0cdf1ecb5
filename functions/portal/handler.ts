import { createHttpHandler } from '#shared/http/pipeline';

// The group's routes, schemas and use cases load on its first request (docs/decisions.md, "Cold start").
export const handler = createHttpHandler(() => import('./handlers'));
