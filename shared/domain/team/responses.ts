import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { getBusinessProfile } from './profile';
import { ROLES } from './roles';
import type { acceptInvitation, inviteMember, listMySellers, listTeam } from './team';

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

const role = z.enum(ROLES).describe('owner, admin, developer (API keys and webhooks) or viewer (read-only)');

const invitation = z.object({
  email: z.string(),
  role,
  createdAt: z.string().describe('ISO 8601 UTC'),
  expiresAt: z.string().describe('ISO 8601 UTC; the link opens nothing after it'),
});

export const invitationResponse = z.lazy(() =>
  invitation.meta({ id: 'TeamInvitation', description: "A pending invitation to the seller's team" }),
);

export const teamResponse = z.lazy(() =>
  z
    .object({
      members: z.array(
        z.object({
          userId: z.string().nullable().describe("The member's user id; null for the account owner"),
          email: z.string().nullable(),
          role,
          accountOwner: z
            .boolean()
            .describe('The login that signed the seller up: always an owner, never removed'),
          you: z.boolean().describe('The caller'),
          since: z.string().nullable().describe('When the invitation was accepted (ISO 8601 UTC)'),
        }),
      ),
      invitations: z.array(invitation),
    })
    .meta({ id: 'Team', description: "The seller's team and its pending invitations" }),
);

export const acceptedInvitationResponse = z.lazy(() =>
  z
    .object({ sellerId: z.number().int(), name: z.string(), role })
    .meta({ id: 'AcceptedInvitation', description: 'The seller the user now belongs to, and their role' }),
);

export const mySellersResponse = z.lazy(() =>
  z
    .object({
      sellers: z.array(
        z.object({
          id: z.number().int().describe('Send it as `X-Seller-Id` to act on this seller'),
          name: z.string(),
          role,
          home: z.boolean().describe('The seller this login signed up (no header needed)'),
        }),
      ),
    })
    .meta({ id: 'MySellers', description: 'The sellers the signed-in user belongs to' }),
);

export const businessProfileResponse = z.lazy(() =>
  z
    .object({
      name: z.string(),
      logoUrl: z.string().nullable().describe('An https URL'),
      brandColor: z.string().nullable().describe('#rrggbb'),
      contrastOnWhite: z
        .number()
        .nullable()
        .describe(
          'WCAG contrast of white on the brand colour; under 4.5 the pages write dark text on it instead',
        ),
    })
    .meta({ id: 'BusinessProfile', description: 'What the hosted pages and the e-mails show of the seller' }),
);

type _Team = Assert<Equals<z.output<typeof teamResponse>, Out<typeof listTeam>>>;
type _Invite = Assert<Equals<z.output<typeof invitationResponse>, Out<typeof inviteMember>>>;
type _Accept = Assert<Equals<z.output<typeof acceptedInvitationResponse>, Out<typeof acceptInvitation>>>;
type _Sellers = Assert<Equals<z.output<typeof mySellersResponse>, Out<typeof listMySellers>>>;
type _Profile = Assert<Equals<z.output<typeof businessProfileResponse>, Out<typeof getBusinessProfile>>>;
