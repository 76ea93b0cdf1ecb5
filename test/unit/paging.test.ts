import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MAX_LIST_WINDOW, PAGING_ERRORS, pageFields, readNumberedPage } from '#shared/domain/paging';
import { ValidationError } from '#shared/errors';
import { parseInput } from '#shared/parse-input';

/** A list of `size` items read as the repositories do: from the start, up to the page's end. */
function listOf(size: number) {
  const reads: { page: number; limit: number }[] = [];
  const read = async (at: { page: number; limit: number }) => {
    reads.push(at);
    const end = Math.min(at.page * at.limit, size);
    const start = (at.page - 1) * at.limit;
    return { items: Array.from({ length: Math.max(0, end - start) }, (_, i) => start + i), totalCount: size };
  };
  return { read, reads };
}

const messagesOf = (input: Record<string, string>) => {
  try {
    parseInput(z.object(pageFields), input);
    return [];
  } catch (error) {
    return (error as ValidationError).messages;
  }
};

describe('page and limit', () => {
  it('default to page 1 of 20', () => {
    expect(parseInput(z.object(pageFields), {})).toEqual({ page: 1, limit: 20 });
  });

  it('answer one sentence per field, whatever is wrong with it', () => {
    for (const limit of ['0', '101', '1.5', 'abc', '-1', '']) {
      expect(messagesOf({ limit }), limit).toEqual([PAGING_ERRORS.limit]);
    }
    for (const page of ['0', '1.5', 'abc', '-1', '']) {
      expect(messagesOf({ page }), page).toEqual([PAGING_ERRORS.page]);
    }
    expect(PAGING_ERRORS).toEqual({
      page: 'page must be an integer of at least 1',
      limit: 'limit must be an integer from 1 to 100',
      window: 'page * limit must be at most 10000; narrow the filters',
    });
  });
});

describe('readNumberedPage', () => {
  it('reads a page within the window as asked', async () => {
    const list = listOf(45);
    expect(await readNumberedPage({ page: 3, limit: 20 }, list.read)).toEqual({
      items: [40, 41, 42, 43, 44],
      totalCount: 45,
    });
    expect(list.reads).toEqual([{ page: 3, limit: 20 }]);
  });

  it('answers an empty page with the totals past the end, however deep', async () => {
    for (const page of [4, 500, 501, 1_000_000]) {
      expect(await readNumberedPage({ page, limit: 20 }, listOf(45).read), String(page)).toEqual({
        items: [],
        totalCount: 45,
      });
    }
  });

  it('reads a page that crosses the window when the list ends before the window does', async () => {
    const list = listOf(9_995);
    expect(await readNumberedPage({ page: 334, limit: 30 }, list.read)).toEqual({
      items: [9_990, 9_991, 9_992, 9_993, 9_994],
      totalCount: 9_995,
    });
    expect(list.reads).toEqual([
      { page: 333, limit: 30 },
      { page: 334, limit: 30 },
    ]);
  });

  it('refuses a page beyond the window of a list that reaches it, with the one window sentence', async () => {
    for (const size of [MAX_LIST_WINDOW, 50_000]) {
      await expect(readNumberedPage({ page: 101, limit: 100 }, listOf(size).read)).rejects.toThrow(
        new ValidationError([PAGING_ERRORS.window]),
      );
    }
    expect((await readNumberedPage({ page: 100, limit: 100 }, listOf(50_000).read)).items).toHaveLength(100);
  });
});
