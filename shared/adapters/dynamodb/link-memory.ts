/** Links a container remembers; past this many it forgets them all and learns again. */
const DEFAULT_CAPACITY = 10_000;

/**
 * What this container learned of links that never change (a price's product, a product uuid's
 * tenant and id), so a later request can name the linked item in the same BatchGetItem as the
 * rest (issue 17). Only immutable links go here: a remembered one is never stale, so nothing has to
 * check it; forgetting one only costs the next request the read that learns it again.
 */
export class LinkMemory<T> {
  private readonly links = new Map<string, T>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  get(key: string): T | undefined {
    return this.links.get(key);
  }

  set(key: string, value: T): void {
    if (this.links.size >= this.capacity && !this.links.has(key)) this.links.clear();
    this.links.set(key, value);
  }
}
