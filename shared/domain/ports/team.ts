import type { Role } from '#shared/domain/team/roles';

/** A user's membership of a seller they were invited to (the seller's signing-up login is not one). */
export interface TeamMember {
  sellerId: number;
  userId: string;
  email: string;
  role: Role;
  createdAt: string;
}

/** An invitation waiting for its address to accept it; `tokenHash` is the SHA-256 of the e-mailed token. */
export interface TeamInvitation {
  sellerId: number;
  email: string;
  role: Role;
  tokenHash: string;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** A seller's business profile: what the hosted pages and the e-mails show of it. */
export interface BusinessProfile {
  id: number;
  name: string;
  /** An https URL of the seller's logo, or null. */
  logoUrl: string | null;
  /** `#rrggbb`, or null for the default colour. */
  brandColor: string | null;
}

export interface TeamRepository {
  /** The role of a user in a seller they were invited to; null when they are no member. */
  roleOf(sellerId: number, userId: string): Promise<Role | null>;
  /** The seller's members and pending invitations (the signing-up owner is in `ownerEmail`). */
  team(
    sellerId: number,
  ): Promise<{ ownerEmail: string | null; members: TeamMember[]; invitations: TeamInvitation[] }>;
  /** The memberships of a user, by seller id. */
  membershipsOf(userId: string): Promise<TeamMember[]>;
  /** Writes the invitation (replacing a pending one of the same address) and its token's pointer. */
  invite(invitation: TeamInvitation, ttlSeconds: number): Promise<void>;
  /** The invitation of a token hash; null when there is none (or it was replaced or used). */
  invitationByToken(tokenHash: string): Promise<TeamInvitation | null>;
  /**
   * Makes the user a member and spends the invitation, in one write. ConflictError `already_exists`
   * when they are a member already; `invalid_state` when the invitation was replaced or used meanwhile.
   */
  accept(invitation: TeamInvitation, member: TeamMember): Promise<void>;
  /** Deletes a pending invitation; false when there was none. */
  revokeInvitation(sellerId: number, email: string): Promise<boolean>;
  /** Removes a member who is not an owner; the removed membership, or null when there was none. ConflictError when an owner. */
  removeMember(sellerId: number, userId: string): Promise<TeamMember | null>;
  /** Removes the user's own membership (an invited owner may leave too). */
  leave(sellerId: number, userId: string): Promise<boolean>;
  /** The business profiles of the sellers (those that exist), one read. */
  profiles(sellerIds: readonly number[]): Promise<BusinessProfile[]>;
  updateProfile(profile: BusinessProfile, at: Date): Promise<void>;
}
