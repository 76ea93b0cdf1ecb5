/**
 * The API pages its lists in two ways, both in docs/openapi.json: cursor pages answer `nextCursor`
 * (null on the last) and take it back as `cursor`; numbered pages answer `totalPages` and take
 * `page` (from 1). A PagePromise is the first page, and iterates from it over every page or item.
 */

/** Any list answer: its items in `data`. */
export interface ListPage<Item> {
  data: Item[];
}

type Query = Record<string, unknown> | undefined;

/**
 * The next page's query, or null after the last: the cursor when the page gave one; otherwise the
 * next number while there are pages left.
 */
export function nextPageQuery(query: Query, page: unknown): Record<string, unknown> | null {
  const body = (page ?? {}) as Record<string, unknown>;
  if (typeof body.nextCursor === 'string' && body.nextCursor !== '') {
    const { page: _numbered, ...rest } = query ?? {};
    return { ...rest, cursor: body.nextCursor };
  }
  if (typeof body.totalPages === 'number') {
    const asked = Number(query?.page ?? (typeof body.page === 'number' ? body.page : 1));
    return asked < body.totalPages ? { ...(query ?? {}), page: asked + 1 } : null;
  }
  return null;
}

/** The first page of a list, which can also walk every page (`pages()`) or every item (`autoPaginate()`). */
export class PagePromise<Page extends ListPage<Item>, Item = Page['data'][number]> extends Promise<Page> {
  // Promise subclasses must build plain promises from then/catch, not another PagePromise.
  static override get [Symbol.species]() {
    return Promise;
  }

  private fetchPage!: (query: Query) => Promise<Page>;
  private query: Query;

  static of<Page extends ListPage<unknown>>(
    fetchPage: (query: Query) => Promise<Page>,
    query: Query,
  ): PagePromise<Page> {
    const first = fetchPage(query);
    const promise = new PagePromise<Page>((resolve, reject) => {
      first.then(resolve, reject);
    });
    promise.fetchPage = fetchPage;
    promise.query = query;
    return promise;
  }

  /** Every page from the first, each fetched when the loop asks for it. */
  async *pages(): AsyncGenerator<Page, void, undefined> {
    let page: Page = await this;
    let query = this.query;
    const seen = new Set<string>();
    while (true) {
      yield page;
      const next = nextPageQuery(query, page);
      if (next === null) return;
      // A cursor that comes back is a service fault; stop rather than loop forever.
      const key = JSON.stringify(next);
      if (seen.has(key)) return;
      seen.add(key);
      query = next;
      page = await this.fetchPage(query);
    }
  }

  /** Every item of every page: `for await (const t of client.transactions.list().autoPaginate())`. */
  async *autoPaginate(): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data as Item[];
  }

  /** `for await (const t of client.transactions.list())` iterates the items too. */
  [Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    return this.autoPaginate();
  }

  /** All items into an array, stopping at `limit` (a guard against unbounded lists). */
  async toArray(options: { limit: number }): Promise<Item[]> {
    const items: Item[] = [];
    for await (const item of this.autoPaginate()) {
      if (items.length >= options.limit) break;
      items.push(item);
    }
    return items;
  }
}
