import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { must } from '../../api/client';
import { useApp } from '../../app/context';
import { Link, navigate, useLocation } from '../../app/router';
import { CodeField, ErrorNote, Field, NewPasswordField, PageTitle } from '../../components/ui';
import { maskDocument } from './document-mask';

/**
 * The password typed at sign-up, kept in memory (never stored) until the address is confirmed, so
 * the seller is logged in right after confirming and offered the authenticator app.
 */
let pendingSignUp: { email: string; password: string } | null = null;

function AuthFrame({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  return (
    <main id="conteudo" className="auth">
      <p className="brand">Painel do vendedor</p>
      <div className="card">
        <PageTitle lead={lead}>{title}</PageTitle>
        {children}
      </div>
    </main>
  );
}

export function LoginView() {
  const { api, session } = useApp();
  const { query } = useLocation();
  const [email, setEmail] = useState(query.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const login = useMutation({
    mutationFn: () => must(api.POST('/api/auth/login', { body: { email, password } })),
    onSuccess: (answer) => {
      if ('challenge' in answer) setChallenge(answer.session);
      else session.signIn(answer);
    },
  });
  const totp = useMutation({
    mutationFn: (sessionId: string) =>
      must(api.POST('/api/auth/login/totp', { body: { email, session: sessionId, code } })),
    onSuccess: (grant) => session.signIn(grant),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (challenge) totp.mutate(challenge);
    else login.mutate();
  };
  const notice = query.get('aviso');
  return (
    <AuthFrame title="Entrar">
      {notice === 'confirmado' ? (
        <output className="status">E-mail confirmado. Entre com sua senha.</output>
      ) : null}
      {notice === 'senha' ? (
        <output className="status">Senha redefinida. Entre com a nova senha.</output>
      ) : null}
      <form onSubmit={submit} className="stack">
        {challenge ? (
          <CodeField
            label="Código do aplicativo autenticador"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
          />
        ) : (
          <>
            <Field
              label="E-mail"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
            <Field
              label="Senha"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          </>
        )}
        <button type="submit" className="primary" disabled={login.isPending || totp.isPending}>
          {challenge ? 'Confirmar código' : 'Entrar'}
        </button>
        <ErrorNote error={login.error ?? totp.error} />
      </form>
      <p>
        <Link to="/esqueci-a-senha">Esqueci a senha</Link> · <Link to="/cadastro">Criar conta</Link>
      </p>
    </AuthFrame>
  );
}

export function SignUpView() {
  const { api } = useApp();
  const [form, setForm] = useState({ email: '', password: '', businessName: '', document: '' });
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [field]: field === 'document' ? maskDocument(e.target.value) : e.target.value });
  const signUp = useMutation({
    mutationFn: () => must(api.POST('/api/auth/sign-up', { body: form })),
    onSuccess: () => {
      pendingSignUp = { email: form.email, password: form.password };
      navigate(`/confirmar?email=${encodeURIComponent(form.email)}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signUp.mutate();
  };
  return (
    <AuthFrame title="Criar conta" lead="Comece no modo de teste: nada é cobrado até você conectar o Asaas.">
      <form onSubmit={submit} className="stack">
        <Field
          label="Nome do negócio"
          value={form.businessName}
          onChange={set('businessName')}
          required
          maxLength={120}
          autoComplete="organization"
        />
        <Field
          label="CPF ou CNPJ"
          inputMode="numeric"
          value={form.document}
          onChange={set('document')}
          required
          placeholder="000.000.000-00"
        />
        <Field
          label="E-mail"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={set('email')}
          required
        />
        <NewPasswordField label="Senha" value={form.password} onChange={set('password')} />
        <button type="submit" className="primary" disabled={signUp.isPending}>
          Criar conta
        </button>
        <ErrorNote error={signUp.error} />
      </form>
      <p>
        Já tem conta? <Link to="/entrar">Entrar</Link>
      </p>
    </AuthFrame>
  );
}

export function ConfirmView() {
  const { api, session } = useApp();
  const { query } = useLocation();
  const [email, setEmail] = useState(query.get('email') ?? '');
  const [code, setCode] = useState('');
  const confirm = useMutation({
    mutationFn: async () => {
      await must(api.POST('/api/auth/confirm', { body: { email, code } }));
      const pending = pendingSignUp?.email === email ? pendingSignUp : null;
      pendingSignUp = null;
      if (!pending) return null;
      return must(api.POST('/api/auth/login', { body: pending }));
    },
    onSuccess: (answer) => {
      if (answer && !('challenge' in answer)) {
        session.signIn(answer);
        navigate('/conta/autenticador?boas-vindas=1', { replace: true });
      } else navigate(`/entrar?aviso=confirmado&email=${encodeURIComponent(email)}`, { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate();
  };
  return (
    <AuthFrame title="Confirme seu e-mail" lead="Enviamos um código de 6 dígitos para o seu e-mail.">
      <form onSubmit={submit} className="stack">
        <Field
          label="E-mail"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <CodeField label="Código" value={code} onChange={(e) => setCode(e.target.value)} />
        <button type="submit" className="primary" disabled={confirm.isPending}>
          Confirmar
        </button>
        <ErrorNote error={confirm.error} />
      </form>
    </AuthFrame>
  );
}

export function ForgotPasswordView() {
  const { api } = useApp();
  const [email, setEmail] = useState('');
  const forgot = useMutation({
    mutationFn: () => must(api.POST('/api/auth/forgot-password', { body: { email } })),
    onSuccess: () => navigate(`/nova-senha?email=${encodeURIComponent(email)}`),
  });
  return (
    <AuthFrame
      title="Esqueci a senha"
      lead="Enviamos um código para redefinir a senha, se o e-mail tiver conta."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          forgot.mutate();
        }}
        className="stack"
      >
        <Field
          label="E-mail"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <button type="submit" className="primary" disabled={forgot.isPending}>
          Enviar código
        </button>
        <ErrorNote error={forgot.error} />
      </form>
      <p>
        <Link to="/entrar">Voltar para entrar</Link>
      </p>
    </AuthFrame>
  );
}

export function ResetPasswordView() {
  const { api } = useApp();
  const { query } = useLocation();
  const [form, setForm] = useState({ email: query.get('email') ?? '', code: '', password: '' });
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [field]: e.target.value });
  const reset = useMutation({
    mutationFn: () => must(api.POST('/api/auth/reset-password', { body: form })),
    onSuccess: () => navigate(`/entrar?aviso=senha&email=${encodeURIComponent(form.email)}`),
  });
  return (
    <AuthFrame title="Nova senha" lead="Digite o código que enviamos e escolha a nova senha.">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          reset.mutate();
        }}
        className="stack"
      >
        <Field label="E-mail" type="email" value={form.email} onChange={set('email')} required />
        <Field
          label="Código"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={form.code}
          onChange={set('code')}
          required
        />
        <NewPasswordField label="Nova senha" value={form.password} onChange={set('password')} />
        <button type="submit" className="primary" disabled={reset.isPending}>
          Redefinir senha
        </button>
        <ErrorNote error={reset.error} />
      </form>
    </AuthFrame>
  );
}
