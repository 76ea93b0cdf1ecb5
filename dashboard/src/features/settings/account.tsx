import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { must } from '../../api/client';
import { useApp } from '../../app/context';
import { Link, navigate, useLocation } from '../../app/router';
import { CodeField, ErrorNote, Field, NewPasswordField, PageTitle, SecretOnce } from '../../components/ui';

/** Conta: change the password; the authenticator app has its own view. No request to load. */
export function AccountView() {
  const { api } = useApp();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => must(api.POST('/api/auth/change-password', { body: { currentPassword, newPassword } })),
    onSuccess: () => {
      setCurrent('');
      setNext('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <>
      <PageTitle>Conta</PageTitle>
      <section className="card" aria-labelledby="password">
        <h2 id="password">Alterar senha</h2>
        <form onSubmit={submit} className="stack">
          <Field
            label="Senha atual"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrent(e.target.value)}
            required
          />
          <NewPasswordField
            label="Nova senha"
            value={newPassword}
            onChange={(e) => setNext(e.target.value)}
          />
          <button type="submit" className="primary" disabled={change.isPending}>
            Alterar senha
          </button>
          {change.isSuccess ? <output className="status">Senha alterada.</output> : null}
          <ErrorNote error={change.error} />
        </form>
      </section>
      <section className="card" aria-labelledby="second-factor">
        <h2 id="second-factor">Aplicativo autenticador</h2>
        <p>
          Um código do aplicativo a cada login. É exigido antes de conectar o Asaas ou criar chaves de
          produção.
        </p>
        <Link to="/conta/autenticador">Configurar o aplicativo autenticador</Link>
      </section>
    </>
  );
}

/** The authenticator (TOTP): a secret shown once, then one of its codes turns it on. */
export function TotpView() {
  const { api } = useApp();
  const { query } = useLocation();
  const welcome = query.get('boas-vindas') === '1';
  const [code, setCode] = useState('');
  const setup = useMutation({ mutationFn: () => must(api.POST('/api/auth/totp/setup')) });
  const verify = useMutation({
    mutationFn: () => must(api.POST('/api/auth/totp/verify', { body: { code } })),
  });
  return (
    <>
      <PageTitle
        lead={
          welcome
            ? 'Conta criada. Proteja o acesso com um aplicativo autenticador (Google Authenticator, Authy, 1Password…).'
            : 'Um código do aplicativo será pedido a cada login.'
        }
      >
        {welcome ? 'Bem-vindo!' : 'Aplicativo autenticador'}
      </PageTitle>
      {verify.isSuccess ? (
        <output className="status card">Aplicativo autenticador ativado.</output>
      ) : setup.data ? (
        <section className="card stack" aria-labelledby="totp-secret">
          <h2 id="totp-secret">Adicione a conta no aplicativo</h2>
          <SecretOnce label="Chave de configuração (digite no aplicativo)" value={setup.data.secret} />
          <SecretOnce
            label="Ou o endereço otpauth (para aplicativos que o aceitam)"
            value={setup.data.otpauthUri}
          />
          <form
            onSubmit={(e) => {
              e.preventDefault();
              verify.mutate();
            }}
            className="stack"
          >
            <CodeField
              label="Código de 6 dígitos do aplicativo"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <button type="submit" className="primary" disabled={verify.isPending}>
              Ativar
            </button>
            <ErrorNote error={verify.error} />
          </form>
        </section>
      ) : (
        <div className="row wrap">
          <button type="button" className="primary" disabled={setup.isPending} onClick={() => setup.mutate()}>
            Configurar agora
          </button>
          <ErrorNote error={setup.error} />
        </div>
      )}
      {welcome || verify.isSuccess ? (
        <p>
          <button type="button" onClick={() => navigate('/')}>
            {verify.isSuccess ? 'Continuar' : 'Agora não, ir para o início'}
          </button>
        </p>
      ) : null}
    </>
  );
}
