import * as z from 'zod';
import { ValidationError } from '#shared/errors';

/** The spec's page size on every list: 20 unless asked, at most 100. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * Numbered pages are read from the start of their index, so the deepest position a page may reach
 * (page × limit) is bounded; a narrower filter reaches further back.
 */
export const MAX_LIST_WINDOW = 10_000;

/** The one sentence of each paging limit, the same on every list. */
export const PAGING_ERRORS = {
  page: 'page must be an integer of at least 1',
  limit: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`,
  window: `page * limit must be at most ${MAX_LIST_WINDOW}; narrow the filters`,
} as const;

/** `limit` of any list, numbered or by cursor. */
export const limitQuery = z.coerce
  .number({ error: PAGING_ERRORS.limit })
  .int(PAGING_ERRORS.limit)
  .min(1, PAGING_ERRORS.limit)
  .max(MAX_PAGE_SIZE, PAGING_ERRORS.limit)
  .default(DEFAULT_PAGE_SIZE);

/** `page` of a numbered list, from 1. */
export const pageQuery = z.coerce
  .number({ error: PAGING_ERRORS.page })
  .int(PAGING_ERRORS.page)
  .min(1, PAGING_ERRORS.page)
  .default(1);

/** `page` and `limit` of a numbered list. */
export const pageFields = { page: pageQuery, limit: limitQuery };

export interface NumberedRead<T> {
  items: T[];
  totalCount: number;
}

/**
 * One numbered page. A page past the end of a list is an empty page with the list's totals, however
 * deep it is asked. A page that reaches beyond MAX_LIST_WINDOW first reads the deepest page within
 * it: a list shorter than the window is then read as asked (the walk ends with the list), and a
 * longer one is out of reach at that depth: the window's 400.
 */
export async function readNumberedPage<T, R extends NumberedRead<T>>(
  query: { page: number; limit: number },
  read: (page: { page: number; limit: number }) => Promise<R>,
): Promise<R> {
  if (query.page * query.limit <= MAX_LIST_WINDOW) return read({ page: query.page, limit: query.limit });
  const deepest = await read({ page: Math.floor(MAX_LIST_WINDOW / query.limit), limit: query.limit });
  if (deepest.totalCount >= MAX_LIST_WINDOW) throw new ValidationError([PAGING_ERRORS.window]);
  if (deepest.totalCount <= (query.page - 1) * query.limit) return { ...deepest, items: [] };
  return read({ page: query.page, limit: query.limit });
}
