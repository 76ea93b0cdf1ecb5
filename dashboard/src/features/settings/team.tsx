import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { must } from '../../api/client';
import { useApp, useKey } from '../../app/context';
import { Link, navigate } from '../../app/router';
import { ROLE_LABELS, type Role, useCan, useCurrentSeller } from '../../app/sellers';
import { formatDateTime } from '../../components/format';
import { ConfirmAction, ErrorNote, Field, Loading, PageTitle } from '../../components/ui';

const ROLE_HINTS: Record<Role, string> = {
  owner: 'tudo, inclusive convidar proprietários',
  admin: 'tudo, inclusive a equipe e o perfil',
  developer: 'consulta, chaves de API e webhooks',
  viewer: 'só consulta',
};

/** Configurações → Equipe: the members and their roles, invitations, removal (one request to load). */
export function TeamView() {
  const { api } = useApp();
  const client = useQueryClient();
  const key = useKey('team');
  const canManage = useCan('admin');
  const current = useCurrentSeller();
  const team = useQuery({ queryKey: key, queryFn: () => must(api.GET('/api/team')) });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const roleId = useId();
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const invite = useMutation({
    mutationFn: () => must(api.POST('/api/team/invitations', { body: { email, role } })),
    onSuccess: () => {
      setEmail('');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (userId: string) =>
      must(api.DELETE('/api/team/members/{userId}', { params: { path: { userId } } })),
    onSuccess: refresh,
  });
  const revoke = useMutation({
    mutationFn: (address: string) =>
      must(api.DELETE('/api/team/invitations/{email}', { params: { path: { email: address } } })),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  const roles: Role[] =
    current?.role === 'owner' ? ['viewer', 'developer', 'admin', 'owner'] : ['viewer', 'developer', 'admin'];
  return (
    <>
      <PageTitle lead="Quem acessa este vendedor no painel, e o que cada um pode fazer.">Equipe</PageTitle>
      {team.isPending ? <Loading /> : null}
      <ErrorNote error={team.error} />
      {team.data ? (
        <section className="card" aria-labelledby="members">
          <h2 id="members">Membros</h2>
          <ul className="team-list">
            {team.data.members.map((m) => (
              <li key={m.userId ?? 'account-owner'} className="team-member">
                <span className="team-who">
                  <strong>{m.email ?? 'Titular da conta'}</strong>
                  {m.you ? ' (você)' : ''}
                  <span className="muted"> · {ROLE_LABELS[m.role]}</span>
                </span>
                {canManage && m.userId && m.role !== 'owner' && !m.you ? (
                  <ConfirmAction
                    label="Remover"
                    question={`Remover ${m.email} da equipe?`}
                    confirmLabel="Remover membro"
                    busy={remove.isPending}
                    onConfirm={() => remove.mutate(m.userId as string)}
                  />
                ) : null}
              </li>
            ))}
          </ul>
          <ErrorNote error={remove.error} />
        </section>
      ) : null}
      {team.data && team.data.invitations.length > 0 ? (
        <section className="card" aria-labelledby="pending">
          <h2 id="pending">Convites pendentes</h2>
          <ul className="team-list">
            {team.data.invitations.map((i) => (
              <li key={i.email} className="team-member">
                <span className="team-who">
                  <strong>{i.email}</strong>
                  <span className="muted">
                    {' '}
                    · {ROLE_LABELS[i.role]} · vale até {formatDateTime(i.expiresAt)}
                  </span>
                </span>
                {canManage ? (
                  <ConfirmAction
                    label="Cancelar convite"
                    question={`Cancelar o convite de ${i.email}?`}
                    confirmLabel="Cancelar convite"
                    busy={revoke.isPending}
                    onConfirm={() => revoke.mutate(i.email)}
                  />
                ) : null}
              </li>
            ))}
          </ul>
          <ErrorNote error={revoke.error} />
        </section>
      ) : null}
      {canManage ? (
        <section className="card" aria-labelledby="invite">
          <h2 id="invite">Convidar</h2>
          <form onSubmit={submit} className="stack">
            <Field
              label="E-mail da pessoa"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
            <div className="field">
              <label htmlFor={roleId}>Papel</label>
              <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {roles.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABELS[r]}: {ROLE_HINTS[r]}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="primary" disabled={invite.isPending}>
              Enviar convite
            </button>
            {invite.isSuccess ? (
              <output className="status">Convite enviado para {invite.data.email}.</output>
            ) : null}
            <ErrorNote error={invite.error} />
          </form>
        </section>
      ) : null}
      {current && !current.home ? <LeaveTeam /> : null}
    </>
  );
}

function LeaveTeam() {
  const { api, setSellerId } = useApp();
  const client = useQueryClient();
  const leave = useMutation({
    mutationFn: () => must(api.POST('/api/team/leave')),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['my-sellers'] });
      setSellerId(null);
    },
  });
  return (
    <section className="card" aria-labelledby="leave">
      <h2 id="leave">Sair da equipe</h2>
      <ConfirmAction
        label="Sair desta equipe"
        question="Você perde o acesso a este vendedor."
        confirmLabel="Sair"
        busy={leave.isPending}
        onConfirm={() => leave.mutate()}
      />
      <ErrorNote error={leave.error} />
    </section>
  );
}

/** The invitation token the e-mail's link carries in its fragment, kept in memory across the login. */
let pendingToken: string | null = null;

/** Reads the token from the address (`/dashboard/convite#inv_…`) and drops it from the address bar. */
export function takeInvitationToken(): string | null {
  const hash = window.location.hash.slice(1);
  if (hash.startsWith('inv_')) {
    pendingToken = hash;
    history.replaceState(null, '', window.location.pathname);
  }
  return pendingToken;
}

/** /convite signed out: log in or sign up with the invited address first; the token waits in memory. */
export function InvitationSignedOutView() {
  useEffect(() => {
    takeInvitationToken();
  }, []);
  return (
    <main className="auth" id="conteudo">
      <PageTitle lead="Entre com o e-mail que recebeu o convite, ou crie sua conta com ele.">
        Convite para equipe
      </PageTitle>
      <p>
        <Link to="/entrar">Entrar</Link> · <Link to="/cadastro">Criar conta</Link>
      </p>
    </main>
  );
}

/** /convite signed in: accept the invitation, then act on the seller it opened. */
export function InvitationView() {
  const { api, setSellerId } = useApp();
  const client = useQueryClient();
  const [token] = useState(() => takeInvitationToken());
  const accept = useMutation({
    mutationFn: () => must(api.POST('/api/team/invitations/accept', { body: { token: token ?? '' } })),
    onSuccess: async (joined) => {
      pendingToken = null;
      await client.invalidateQueries({ queryKey: ['my-sellers'] });
      setSellerId(joined.sellerId);
    },
  });
  return (
    <>
      <PageTitle lead="Aceite para acessar o vendedor que convidou você.">Convite para equipe</PageTitle>
      {token ? (
        <section className="card">
          <button
            type="button"
            className="primary"
            disabled={accept.isPending}
            onClick={() => accept.mutate()}
          >
            Aceitar convite
          </button>
          <ErrorNote error={accept.error} />
        </section>
      ) : (
        <p>
          Nenhum convite neste endereço. Abra o link do e-mail de novo, ou <Link to="/">volte ao início</Link>
          .
        </p>
      )}
    </>
  );
}

/** After a login with an invitation waiting, go accept it. */
export function resumeInvitation(): void {
  if (pendingToken) navigate('/convite');
}
