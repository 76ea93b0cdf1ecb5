import { createHash } from 'node:crypto';
import type { Deps } from '#shared/domain/deps';
import { teamInvitationMail } from '#shared/domain/mail/templates';
import type { Tenant } from '#shared/domain/tenant';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '#shared/errors';

import { randomBase62 } from '#shared/ids';
import { parseInput } from '#shared/validation';
import type { DashboardUser, Role } from './roles';
import { acceptInvitationSchema, inviteSchema } from './schemas';

export type TeamDeps = Pick<Deps, 'team' | 'mailer' | 'clock' | 'publicBaseUrl'>;

/** An invitation is good for 7 days, then its items expire by TTL. */
export const INVITATION_DAYS = 7;

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'proprietário',
  admin: 'administrador',
  developer: 'desenvolvedor',
  viewer: 'leitor',
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Who the request's user is; the JWT routes always have one. */
export function userOf(user: DashboardUser | undefined): DashboardUser {
  if (!user) throw new ForbiddenError('A dashboard login is required');
  return user;
}

/** The seller's team: its signing-up owner, the members invited to it and the pending invitations. */
export async function listTeam(deps: Pick<Deps, 'team'>, tenant: Tenant, caller: DashboardUser | undefined) {
  const user = userOf(caller);
  const { ownerEmail, members, invitations } = await deps.team.team(tenant.sellerId);
  return {
    members: [
      {
        userId: null,
        email: ownerEmail,
        role: 'owner' as Role,
        accountOwner: true,
        you: user.homeSellerId === tenant.sellerId,
        since: null,
      },
      ...members.map((m) => ({
        userId: m.userId as string | null,
        email: m.email as string | null,
        role: m.role,
        accountOwner: false,
        you: m.userId === user.id,
        since: m.createdAt as string | null,
      })),
    ],
    invitations: invitations.map((i) => ({
      email: i.email,
      role: i.role,
      createdAt: i.createdAt,
      expiresAt: i.expiresAt,
    })),
  };
}

/**
 * Invites an address to the seller's team with a role, and e-mails it the link that accepts. Only
 * an owner invites an owner. Inviting an address again replaces its pending invitation.
 */
export async function inviteMember(
  deps: TeamDeps,
  tenant: Tenant,
  caller: DashboardUser | undefined,
  input: unknown,
) {
  const user = userOf(caller);
  const body = parseInput(inviteSchema, input);
  if (body.role === 'owner' && user.role !== 'owner')
    throw new ForbiddenError('Only an owner can invite an owner');
  const { ownerEmail, members } = await deps.team.team(tenant.sellerId);
  if (body.email === ownerEmail || members.some((m) => m.email === body.email))
    throw new ConflictError('That address is already a member of this team', 'already_member');
  const [profile] = await deps.team.profiles([tenant.sellerId]);
  if (!profile) throw new NotFoundError('Seller not found');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  const token = `inv_${randomBase62(40)}`;
  const invitation = {
    sellerId: tenant.sellerId,
    email: body.email,
    role: body.role,
    tokenHash: hashToken(token),
    invitedBy: user.id,
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
  await deps.team.invite(invitation, INVITATION_DAYS * 86_400);
  // The token rides in the fragment: browsers never send it, so no server or proxy logs it.
  const acceptUrl = `${deps.publicBaseUrl}/dashboard/convite#${token}`;
  await deps.mailer.send({
    to: body.email,
    kind: 'team-invitation',
    ...teamInvitationMail({
      businessName: profile.name,
      roleLabel: ROLE_LABELS[body.role],
      acceptUrl,
      expiresAt,
    }),
  });
  return {
    email: body.email,
    role: body.role,
    createdAt: invitation.createdAt,
    expiresAt: invitation.expiresAt,
  };
}

/** Withdraws a pending invitation; its link then opens nothing. */
export async function revokeInvitation(deps: Pick<Deps, 'team'>, tenant: Tenant, email: string) {
  if (!(await deps.team.revokeInvitation(tenant.sellerId, email.toLowerCase())))
    throw new NotFoundError('Invitation not found');
}

/**
 * The signed-in user accepts an invitation with the token from its e-mail. The token alone is not
 * enough: the login's verified address must be the invited one (a forwarded link opens nothing).
 */
export async function acceptInvitation(
  deps: Pick<Deps, 'team' | 'clock'>,
  caller: DashboardUser | undefined,
  input: unknown,
) {
  const user = userOf(caller);
  const { token } = parseInput(acceptInvitationSchema, input);
  const invitation = await deps.team.invitationByToken(hashToken(token));
  const now = deps.clock.now();
  if (!invitation || Date.parse(invitation.expiresAt) <= now.getTime())
    throw new BadRequestError('The invitation is invalid or has expired', 'invitation_invalid');
  if (user.email?.toLowerCase() !== invitation.email)
    throw new ForbiddenError(`This invitation is for another e-mail address: log in as ${invitation.email}`);
  if (user.homeSellerId === invitation.sellerId)
    throw new ConflictError('You are already the owner of this seller', 'already_member');
  await deps.team.accept(invitation, {
    sellerId: invitation.sellerId,
    userId: user.id,
    email: invitation.email,
    role: invitation.role,
    createdAt: now.toISOString(),
  });
  const [profile] = await deps.team.profiles([invitation.sellerId]);
  return { sellerId: invitation.sellerId, name: profile?.name ?? '', role: invitation.role };
}

/** Removes an invited member; an owner is never removed, and nobody removes themselves here (they leave). */
export async function removeMember(
  deps: Pick<Deps, 'team'>,
  tenant: Tenant,
  caller: DashboardUser | undefined,
  userId: string,
) {
  const user = userOf(caller);
  if (userId === user.id) throw new ConflictError('To leave the team, use POST /api/team/leave', 'use_leave');
  const removed = await deps.team.removeMember(tenant.sellerId, userId);
  if (!removed) throw new NotFoundError('Member not found');
}

/**
 * The user leaves the seller they act on. The owner who signed the seller up holds the account
 * (their login names it): they are its last owner and cannot leave.
 */
export async function leaveTeam(deps: Pick<Deps, 'team'>, tenant: Tenant, caller: DashboardUser | undefined) {
  const user = userOf(caller);
  if (user.homeSellerId === tenant.sellerId)
    throw new ConflictError('The owner who signed the seller up cannot leave it', 'last_owner_cannot_leave');
  if (!(await deps.team.leave(tenant.sellerId, user.id))) throw new NotFoundError('Seller not found');
}

/** The sellers the user can act on: their own first, then those they were invited to, with their role. */
export async function listMySellers(deps: Pick<Deps, 'team'>, caller: DashboardUser | undefined) {
  const user = userOf(caller);
  const memberships = await deps.team.membershipsOf(user.id);
  const roles = new Map<number, Role>([[user.homeSellerId, 'owner']]);
  for (const m of memberships) if (!roles.has(m.sellerId)) roles.set(m.sellerId, m.role);
  const profiles = await deps.team.profiles([...roles.keys()]);
  const names = new Map(profiles.map((p) => [p.id, p.name]));
  return {
    sellers: [...roles].map(([id, role]) => ({
      id,
      name: names.get(id) ?? `Vendedor ${id}`,
      role,
      home: id === user.homeSellerId,
    })),
  };
}
