import pkg from '../package.json' with { type: 'json' };

/**
 * The service's release number (`package.json`'s `version`, the one place it is written): the
 * OpenAPI document's `info.version` and `GET /api/health` read it here. The event catalog dates
 * events by the release that introduced them (events/catalog.ts).
 */
export const RELEASE: string = pkg.version;
