import type { BusinessProfile, TeamInvitation, TeamMember, TeamRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';

/** Teams and business profiles in memory, refusing what the DynamoDB adapter refuses. */
export class FakeTeamRepository implements TeamRepository {
  readonly members = new Map<string, TeamMember>();
  readonly invitations = new Map<string, TeamInvitation>();
  readonly sellers = new Map<number, BusinessProfile & { ownerEmail: string | null }>();

  seedSeller(profile: BusinessProfile, ownerEmail: string | null = null): void {
    this.sellers.set(profile.id, { ...profile, ownerEmail });
  }

  async roleOf(sellerId: number, userId: string) {
    return this.members.get(`${sellerId}#${userId}`)?.role ?? null;
  }

  async team(sellerId: number) {
    return {
      ownerEmail: this.sellers.get(sellerId)?.ownerEmail ?? null,
      members: [...this.members.values()].filter((m) => m.sellerId === sellerId),
      invitations: [...this.invitations.values()].filter((i) => i.sellerId === sellerId),
    };
  }

  async membershipsOf(userId: string) {
    return [...this.members.values()]
      .filter((m) => m.userId === userId)
      .sort((a, b) => a.sellerId - b.sellerId);
  }

  async invite(invitation: TeamInvitation) {
    this.invitations.set(`${invitation.sellerId}#${invitation.email}`, invitation);
  }

  async invitationByToken(tokenHash: string) {
    return [...this.invitations.values()].find((i) => i.tokenHash === tokenHash) ?? null;
  }

  async accept(invitation: TeamInvitation, member: TeamMember) {
    const key = `${member.sellerId}#${member.userId}`;
    if (this.members.has(key))
      throw new ConflictError('You are already a member of this seller', 'already_member', {
        reason: 'already_exists',
      });
    const current = this.invitations.get(`${invitation.sellerId}#${invitation.email}`);
    if (current?.tokenHash !== invitation.tokenHash)
      throw new ConflictError('The invitation was replaced or used', 'invitation_used');
    this.invitations.delete(`${invitation.sellerId}#${invitation.email}`);
    this.members.set(key, member);
  }

  async revokeInvitation(sellerId: number, email: string) {
    return this.invitations.delete(`${sellerId}#${email}`);
  }

  async removeMember(sellerId: number, userId: string) {
    const member = this.members.get(`${sellerId}#${userId}`);
    if (!member) return null;
    if (member.role === 'owner')
      throw new ConflictError('An owner cannot be removed', 'owner_cannot_be_removed');
    this.members.delete(`${sellerId}#${userId}`);
    return member;
  }

  async leave(sellerId: number, userId: string) {
    return this.members.delete(`${sellerId}#${userId}`);
  }

  async profiles(sellerIds: readonly number[]) {
    return sellerIds.flatMap((id) => {
      const s = this.sellers.get(id);
      return s ? [{ id: s.id, name: s.name, logoUrl: s.logoUrl, brandColor: s.brandColor }] : [];
    });
  }

  async updateProfile(profile: BusinessProfile) {
    const s = this.sellers.get(profile.id);
    if (!s) throw new ConflictError('The seller does not exist', 'not_found');
    this.sellers.set(profile.id, { ...s, ...profile });
  }
}
