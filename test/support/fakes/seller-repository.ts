import type { SellerRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';

export interface StoredSeller {
  id: number;
  name: string;
  createdAt: string;
}

/**
 * Sellers in a map, ids from one counter starting at 1 (the table's atomic counter). An id already
 * taken (seeded) makes create throw ConflictError (reason `already_exists`) and uses that id up.
 */
export class FakeSellerRepository implements SellerRepository {
  readonly sellers = new Map<number, StoredSeller>();
  private lastId = 0;

  /** Stores a seller as if it had been created earlier, without touching the id counter. */
  seed(seller: StoredSeller): StoredSeller {
    this.sellers.set(seller.id, { ...seller });
    return seller;
  }

  async create(name: string, at: Date): Promise<number> {
    const id = ++this.lastId;
    if (this.sellers.has(id))
      throw new ConflictError('The seller already exists', 'already_exists', { reason: 'already_exists' });
    this.sellers.set(id, { id, name, createdAt: at.toISOString() });
    return id;
  }

  async exists(sellerId: number): Promise<boolean> {
    return this.sellers.has(sellerId);
  }
}
