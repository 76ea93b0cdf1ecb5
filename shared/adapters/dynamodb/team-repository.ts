import type { BusinessProfile, TeamRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { sellerEntity } from './entities/seller';
import { teamInvitationEntity, teamInvitationTokenEntity, teamMemberEntity } from './entities/team';
import { keys } from './keys';
import { ConditionFailedError, type Item, type Table } from './table';

/**
 * The seller's team (members invited to it and their pending invitations) and its business profile.
 * The member item's key is what authentication reads for a seller other than the user's own.
 */
export function createTeamRepository(table: Table): TeamRepository {
  return {
    async roleOf(sellerId, userId) {
      const item = await table.get<Item>(keys.teamMember(sellerId, userId), { consistent: true });
      return item ? teamMemberEntity.fromItem(item).role : null;
    },

    async team(sellerId) {
      const [page, login] = await Promise.all([
        table.query<Item>({
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
          ExpressionAttributeValues: { ':pk': keys.seller(sellerId).pk, ':prefix': keys.teamPrefix },
          ConsistentRead: true,
        }),
        table.get<Item>(keys.sellerLogin(sellerId), { consistent: true }),
      ]);
      const members = page.items.filter((i) => i.entity === teamMemberEntity.entity);
      const invitations = page.items.filter((i) => i.entity === teamInvitationEntity.entity);
      return {
        ownerEmail: typeof login?.email === 'string' ? login.email : null,
        members: members.map(teamMemberEntity.fromItem),
        invitations: invitations.map(teamInvitationEntity.fromItem),
      };
    },

    async membershipsOf(userId) {
      const p = teamMemberEntity.patterns.byUser;
      const page = await table.query<Item>({
        IndexName: p.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': p.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.sellersOfUser(userId) },
      });
      return page.items.map(teamMemberEntity.fromItem);
    },

    async invite(invitation) {
      await table.transact([
        { Put: { Item: teamInvitationEntity.toItem(invitation) } },
        { Put: { Item: teamInvitationTokenEntity.toItem(invitation) } },
      ]);
    },

    async invitationByToken(tokenHash) {
      const pointer = await table.get<Item>(keys.teamInvitationToken(tokenHash), { consistent: true });
      if (!pointer) return null;
      const found = teamInvitationTokenEntity.fromItem(pointer);
      // A newer invitation of the address replaced this one: its token no longer opens anything.
      const current = await table.get<Item>(keys.teamInvitation(found.sellerId, found.email), {
        consistent: true,
      });
      if (!current || current.tokenHash !== tokenHash) return null;
      return teamInvitationEntity.fromItem(current);
    },

    async accept(invitation, member) {
      try {
        await table.transact([
          {
            Put: {
              Item: teamMemberEntity.toItem(member),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Delete: {
              Key: teamInvitationEntity.key(invitation),
              ConditionExpression: 'tokenHash = :h',
              ExpressionAttributeValues: { ':h': invitation.tokenHash },
            },
          },
          { Delete: { Key: teamInvitationTokenEntity.key(invitation) } },
        ]);
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        if (error.failedIndexes.includes(0))
          throw new ConflictError('You are already a member of this seller', 'already_member', {
            reason: 'already_exists',
            cause: error,
          });
        throw new ConflictError('The invitation was replaced or used', 'invitation_used', { cause: error });
      }
    },

    async revokeInvitation(sellerId, email) {
      const item = await table.get<Item>(keys.teamInvitation(sellerId, email), { consistent: true });
      if (!item) return false;
      const invitation = teamInvitationEntity.fromItem(item);
      await table.transact([
        { Delete: { Key: teamInvitationEntity.key(invitation) } },
        { Delete: { Key: teamInvitationTokenEntity.key(invitation) } },
      ]);
      return true;
    },

    async removeMember(sellerId, userId) {
      const item = await table.get<Item>(keys.teamMember(sellerId, userId), { consistent: true });
      if (!item) return null;
      const member = teamMemberEntity.fromItem(item);
      try {
        await table.delete(keys.teamMember(sellerId, userId), {
          condition: '#role <> :owner',
          names: { '#role': 'role' },
          values: { ':owner': 'owner' },
        });
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        throw new ConflictError('An owner cannot be removed', 'owner_cannot_be_removed', { cause: error });
      }
      return member;
    },

    async leave(sellerId, userId) {
      return table.deleteIfExists(keys.teamMember(sellerId, userId));
    },

    async profiles(sellerIds) {
      if (sellerIds.length === 0) return [];
      const items = await table.batchGet<Item>(sellerIds.map((id) => keys.seller(id)));
      return items.map((item) => {
        const s = sellerEntity.fromItem(item);
        return { id: s.id, name: s.name, logoUrl: s.logoUrl, brandColor: s.brandColor };
      });
    },

    async updateProfile(profile: BusinessProfile, at) {
      const set = ['#name = :name', 'updatedAt = :at'];
      const remove: string[] = [];
      const values: Item = { ':name': profile.name, ':at': at.toISOString() };
      for (const field of ['logoUrl', 'brandColor'] as const) {
        if (profile[field] === null) remove.push(field);
        else {
          set.push(`${field} = :${field}`);
          values[`:${field}`] = profile[field];
        }
      }
      try {
        await table.update({
          Key: keys.seller(profile.id),
          UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: values,
        });
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        throw new ConflictError('The seller does not exist', 'not_found', { cause: error });
      }
    },
  };
}
