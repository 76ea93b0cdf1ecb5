import type { SellerLogin } from '#shared/domain/ports';
import { keys } from '../keys';
import { defineEntity } from './entity';

/** A seller's profile: the record behind the numeric id in its token. */
export interface SellerProfile {
  id: number;
  name: string;
  createdAt: string;
}

/** The profile as read: with the business profile's logo and colour, absent until a seller sets them. */
export interface StoredSellerProfile extends SellerProfile {
  logoUrl: string | null;
  brandColor: string | null;
}

/**
 * A seller's profile (`PROFILE`), written by the operator path and by a sign-up alike; id from the
 * `seller` counter. The business profile's `logoUrl` and `brandColor` are set by an update
 * (team-repository) and read as null where absent, so items written before them need no migration.
 */
export const sellerEntity = defineEntity({
  entity: 'seller',
  version: 1,
  key: (s: SellerProfile) => keys.seller(s.id),
  patterns: {},
  attributes: (s) => ({ id: s.id, name: s.name, createdAt: s.createdAt }),
  fromItem: (item): StoredSellerProfile => ({
    id: Number(item.id),
    name: String(item.name),
    createdAt: String(item.createdAt),
    logoUrl: typeof item.logoUrl === 'string' ? item.logoUrl : null,
    brandColor: typeof item.brandColor === 'string' ? item.brandColor : null,
  }),
});

/** A self-service sign-up's login record, as the sign-up writes it. */
export interface SellerSignUp {
  sellerId: number;
  email: string;
  document: string;
  createdAt: string;
}

/**
 * The login record beside the profile (`LOGIN`): a sign-up writes it whole; turning on a second
 * factor sets `totpEnabled` by an update, which also creates it for a seller an operator made (not
 * signed up alone). The live gate reads it.
 */
export const sellerLoginEntity = defineEntity({
  entity: 'seller-login',
  version: 1,
  key: (l: SellerSignUp) => keys.sellerLogin(l.sellerId),
  patterns: {},
  attributes: (l) => ({
    sellerId: l.sellerId,
    email: l.email,
    document: l.document,
    selfSignedUp: true,
    totpEnabled: false,
    createdAt: l.createdAt,
  }),
  fromItem: (item): SellerLogin => ({
    sellerId: Number(item.sellerId),
    selfSignedUp: item.selfSignedUp === true,
    totpEnabled: item.totpEnabled === true,
  }),
});
