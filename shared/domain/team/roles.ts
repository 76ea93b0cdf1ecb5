import { AppError } from '#shared/errors';

/**
 * A dashboard user's role in one seller (DESIGN 9). The owner is the login that signed the seller up
 * (its token's `custom:seller_id`) and anyone invited as owner; the API enforces the roles on every
 * route a JWT calls. API keys keep their own scopes (`permissions: read | write`).
 */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a route does to the seller, as its route row says (`access`) or its method implies:
 * `read` (any GET), `write` (money, customers, products: any other method), `developer` (API keys
 * and webhook endpoints), `admin` (members, invitations, the business profile, the provider connection) and `personal` (the
 * user's own login and sellers: always the home seller, any role).
 */
export type Access = 'read' | 'write' | 'developer' | 'admin' | 'personal';

const GRANTS: Record<Role, readonly Access[]> = {
  owner: ['read', 'write', 'developer', 'admin', 'personal'],
  admin: ['read', 'write', 'developer', 'admin', 'personal'],
  developer: ['read', 'developer', 'personal'],
  viewer: ['read', 'personal'],
};

export const allows = (role: Role, access: Access) => GRANTS[role].includes(access);

/** The access a route needs: its row's, or read for GET and write for every other method. */
export const accessOf = (route: { method: string; access?: Access }): Access =>
  route.access ?? (route.method === 'GET' ? 'read' : 'write');

const WHAT: Record<Access, string> = {
  read: 'read this seller',
  write: 'change data or move money',
  developer: 'manage API keys and webhooks',
  admin: 'manage the team, the business profile or the provider connection',
  personal: 'use this route',
};

/** 403 for a member whose role does not reach the route's access. */
export class RoleForbiddenError extends AppError {
  constructor(role: Role, access: Access) {
    super(403, 'role_forbidden', `Your role (${role}) cannot ${WHAT[access]}`);
  }
}

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

/**
 * The person behind a dashboard JWT: the token's subject and verified e-mail, the seller their login
 * signed up (`homeSellerId`, where they are owner) and their role in the seller the request acts on.
 */
export interface DashboardUser {
  id: string;
  email: string | null;
  homeSellerId: number;
  role: Role;
}
