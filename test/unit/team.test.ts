import { describe, expect, it } from 'vitest';
import { accessOf, allows, ROLES, type Role } from '#shared/domain/team/roles';
import { acceptInvitation, inviteMember, leaveTeam, listMySellers } from '#shared/domain/team/team';
import { FakeClock } from '../support/fakes/clock';
import { RecordingMailer } from '../support/fakes/mail';
import { FakeTeamRepository } from '../support/fakes/team-repository';

describe('roles', () => {
  it.each([
    ['owner', ['read', 'write', 'developer', 'admin']],
    ['admin', ['read', 'write', 'developer', 'admin']],
    ['developer', ['read', 'developer']],
    ['viewer', ['read']],
  ] as [Role, string[]][])('%s reaches exactly %j', (role, reached) => {
    const all = ['read', 'write', 'developer', 'admin'] as const;
    expect(all.filter((a) => allows(role, a))).toEqual(reached);
  });

  it('lets every role call its own login routes', () => {
    for (const role of ROLES) expect(allows(role, 'personal')).toBe(true);
  });

  it('reads GET as read and any other method as write unless the row says', () => {
    expect(accessOf({ method: 'GET' })).toBe('read');
    expect(accessOf({ method: 'POST' })).toBe('write');
    expect(accessOf({ method: 'DELETE' })).toBe('write');
    expect(accessOf({ method: 'POST', access: 'developer' })).toBe('developer');
  });
});

describe('invitations', () => {
  const seller = { sellerId: 10, environment: 'test' as const };
  const owner = { id: 'u-owner', email: 'dona@loja.example', homeSellerId: 10, role: 'owner' as Role };
  const setup = () => {
    const team = new FakeTeamRepository();
    team.seedSeller({ id: 10, name: 'Loja <da> Dona', logoUrl: null, brandColor: null }, 'dona@loja.example');
    team.seedSeller({ id: 20, name: 'Escritório', logoUrl: null, brandColor: null });
    const mailer = new RecordingMailer();
    const deps = {
      team,
      mailer,
      clock: new FakeClock('2026-11-28T12:00:00Z'),
      publicBaseUrl: 'https://pay.example',
    };
    return { team, mailer, deps };
  };
  const tokenIn = (text: string) => text.match(/#(inv_\w+)/)?.[1] as string;

  it('mails a link whose token is in the fragment, and the invited address accepts it', async () => {
    const { mailer, deps } = setup();
    await inviteMember(deps, seller, owner, { email: 'Leitor@Contabil.example', role: 'viewer' });
    const mail = mailer.sent[0];
    expect(mail.to).toBe('leitor@contabil.example');
    expect(mail.text).toMatch(/https:\/\/pay\.example\/dashboard\/convite#inv_\w{40}/);
    expect(mail.html).toContain('Loja &lt;da&gt; Dona');
    const viewer = {
      id: 'u-viewer',
      email: 'leitor@contabil.example',
      homeSellerId: 20,
      role: 'owner' as Role,
    };
    await expect(acceptInvitation(deps, viewer, { token: tokenIn(mail.text) })).resolves.toEqual({
      sellerId: 10,
      name: 'Loja <da> Dona',
      role: 'viewer',
    });
    await expect(listMySellers(deps, viewer)).resolves.toEqual({
      sellers: [
        { id: 20, name: 'Escritório', role: 'owner', home: true },
        { id: 10, name: 'Loja <da> Dona', role: 'viewer', home: false },
      ],
    });
  });

  it('refuses an expired invitation and one accepted by another address', async () => {
    const { mailer, deps } = setup();
    await inviteMember(deps, seller, owner, { email: 'dev@loja.example', role: 'developer' });
    const token = tokenIn(mailer.sent[0].text);
    const other = { id: 'u-x', email: 'x@loja.example', homeSellerId: 20, role: 'owner' as Role };
    await expect(acceptInvitation(deps, other, { token })).rejects.toMatchObject({ statusCode: 403 });
    deps.clock.set('2026-12-05T12:00:01Z');
    const dev = { id: 'u-dev', email: 'dev@loja.example', homeSellerId: 20, role: 'owner' as Role };
    await expect(acceptInvitation(deps, dev, { token })).rejects.toMatchObject({
      code: 'invitation_invalid',
    });
  });

  it('lets only an owner invite an owner, and never the members again', async () => {
    const { deps } = setup();
    const admin = { ...owner, id: 'u-admin', homeSellerId: 30, role: 'admin' as Role };
    await expect(
      inviteMember(deps, seller, admin, { email: 'a@b.example', role: 'owner' }),
    ).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(
      inviteMember(deps, seller, owner, { email: 'dona@loja.example', role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'already_member' });
  });

  it('keeps the account owner from leaving', async () => {
    const { deps } = setup();
    await expect(leaveTeam(deps, seller, owner)).rejects.toMatchObject({ code: 'last_owner_cannot_leave' });
  });
});
