import type { TeamInvitation, TeamMember } from '#shared/domain/ports';
import { isRole } from '#shared/domain/team/roles';
import { keys } from '../keys';
import type { Item } from '../table';
import { defineEntity } from './entity';

const roleOf = (value: unknown) => {
  if (!isRole(value)) throw new Error(`stored team role ${String(value)} is not a role`);
  return value;
};

/** A user's membership of a seller (`TEAM#MEMBER#<userId>` in the seller's partition). */
export const teamMemberEntity = defineEntity({
  entity: 'team-member',
  version: 1,
  key: (m: TeamMember) => keys.teamMember(m.sellerId, m.userId),
  patterns: {
    byUser: {
      index: 'gsi1',
      doc: '`USER#<userId>#SELLERS` / seller id: the sellers a dashboard user was invited to (the seller switcher)',
      at: (m) => ({ pk: keys.sellersOfUser(m.userId), sk: String(m.sellerId).padStart(12, '0') }),
    },
  },
  attributes: (m) => ({
    sellerId: m.sellerId,
    userId: m.userId,
    email: m.email,
    role: m.role,
    createdAt: m.createdAt,
  }),
  fromItem: (item: Item): TeamMember => ({
    sellerId: Number(item.sellerId),
    userId: String(item.userId),
    email: String(item.email),
    role: roleOf(item.role),
    createdAt: String(item.createdAt),
  }),
});

const invitationAttributes = (i: TeamInvitation): Item => ({
  sellerId: i.sellerId,
  email: i.email,
  role: i.role,
  tokenHash: i.tokenHash,
  invitedBy: i.invitedBy,
  createdAt: i.createdAt,
  expiresAt: i.expiresAt,
  ttl: Math.floor(Date.parse(i.expiresAt) / 1000),
});

const invitationOf = (item: Item): TeamInvitation => ({
  sellerId: Number(item.sellerId),
  email: String(item.email),
  role: roleOf(item.role),
  tokenHash: String(item.tokenHash),
  invitedBy: String(item.invitedBy),
  createdAt: String(item.createdAt),
  expiresAt: String(item.expiresAt),
});

/** A pending invitation (`TEAM#INVITE#<email>` in the seller's partition), gone by TTL after 7 days. */
export const teamInvitationEntity = defineEntity({
  entity: 'team-invitation',
  version: 1,
  key: (i: TeamInvitation) => keys.teamInvitation(i.sellerId, i.email),
  patterns: {},
  attributes: invitationAttributes,
  fromItem: invitationOf,
});

/** The invitation's copy under its token hash: acceptance reads it with one GetItem. */
export const teamInvitationTokenEntity = defineEntity({
  entity: 'team-invitation-token',
  version: 1,
  key: (i: TeamInvitation) => keys.teamInvitationToken(i.tokenHash),
  patterns: {},
  attributes: invitationAttributes,
  fromItem: invitationOf,
});
