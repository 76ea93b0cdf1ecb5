import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { createApi, type Environment, must } from '../api/client';
import { Loading, PageTitle } from '../components/ui';
import {
  ConfirmView,
  ForgotPasswordView,
  LoginView,
  ResetPasswordView,
  SignUpView,
} from '../features/auth/auth-views';
import { CarneDetailView } from '../features/billing/carne-detail';
import { CarnesView, NewCarneView } from '../features/billing/carnes';
import { ScheduledChargeDetailView } from '../features/billing/scheduled-charge-detail';
import { NewScheduledChargeView, ScheduledChargesView } from '../features/billing/scheduled-charges';
import { CustomerDetailView } from '../features/customers/customer-detail';
import { CustomersView } from '../features/customers/customers';
import { ApiKeysView } from '../features/developers/api-keys';
import { EndpointDetailView } from '../features/developers/endpoint-detail';
import { EventDetailView, EventsView } from '../features/developers/events';
import { RequestLogsView } from '../features/developers/request-logs';
import { WebhooksView } from '../features/developers/webhooks';
import { HomeView } from '../features/home/home';
import { TransactionDetailView } from '../features/sales/transaction-detail';
import { TransactionsView } from '../features/sales/transactions';
import { AccountView, TotpView } from '../features/settings/account';
import { AsaasView } from '../features/settings/asaas';
import { BusinessProfileView } from '../features/settings/profile';
import {
  InvitationSignedOutView,
  InvitationView,
  resumeInvitation,
  TeamView,
} from '../features/settings/team';
import { AppContext, type AppContextValue } from './context';
import { match, navigate, useLocation } from './router';
import { Session } from './session';
import { Shell } from './shell';

/**
 * A view whose code is fetched when it is first opened (a chunk of its own: the initial script stays
 * small). `M[K]` keeps the view's own props; the bound only says it is a component.
 */
function later<K extends string, M extends Record<K, (props: { id: string }) => ReactNode>>(
  load: () => Promise<M>,
  name: K,
) {
  return lazy(async () => ({ default: (await load())[name] }));
}
const products = () => import('../features/products/products');
const sessions = () => import('../features/checkout/sessions');
const ProductsView = later(products, 'ProductsView');
const ProductDetailView = later(() => import('../features/products/product-detail'), 'ProductDetailView');
const PricesView = later(() => import('../features/products/prices'), 'PricesView');
const AffiliatesView = later(() => import('../features/products/affiliates'), 'AffiliatesView');
const ProductPortalView = later(() => import('../features/products/product-portal'), 'ProductPortalView');
const PortalConfigView = later(() => import('../features/portal/portal-config'), 'PortalConfigView');
const CheckoutSessionsView = later(sessions, 'CheckoutSessionsView');
const CheckoutSessionDetailView = later(sessions, 'CheckoutSessionDetailView');
const LateChargeSettingsView = later(
  () => import('../features/billing/late-charge-settings'),
  'LateChargeSettingsView',
);
const ReminderScheduleView = later(
  () => import('../features/billing/reminder-schedule'),
  'ReminderScheduleView',
);
const SubscriptionsView = later(() => import('../features/subscriptions/subscriptions'), 'SubscriptionsView');
const SubscriptionDetailView = later(
  () => import('../features/subscriptions/subscription-detail'),
  'SubscriptionDetailView',
);

/** Signed-in views by path; each loads its data in at most two requests. */
const VIEWS: [string, (params: Record<string, string>) => ReactNode][] = [
  ['/', () => <HomeView />],
  ['/desenvolvedores/chaves', () => <ApiKeysView />],
  ['/desenvolvedores/webhooks', () => <WebhooksView />],
  ['/desenvolvedores/webhooks/:id', (p) => <EndpointDetailView id={p.id} />],
  ['/desenvolvedores/eventos', () => <EventsView />],
  ['/desenvolvedores/eventos/:id', (p) => <EventDetailView id={p.id} />],
  ['/desenvolvedores/registros', () => <RequestLogsView />],
  ['/asaas', () => <AsaasView />],
  ['/conta', () => <AccountView />],
  ['/conta/autenticador', () => <TotpView />],
  ['/cobrancas', () => <ScheduledChargesView />],
  ['/cobrancas/nova', () => <NewScheduledChargeView />],
  ['/cobrancas/:id', (p) => <ScheduledChargeDetailView id={p.id} />],
  ['/carnes', () => <CarnesView />],
  ['/carnes/novo', () => <NewCarneView />],
  ['/carnes/:uuid', (p) => <CarneDetailView uuid={p.uuid} />],
  ['/produtos', () => <ProductsView />],
  ['/produtos/:id', (p) => <ProductDetailView id={p.id} />],
  ['/produtos/:id/precos', (p) => <PricesView id={p.id} />],
  ['/produtos/:id/afiliados', (p) => <AffiliatesView id={p.id} />],
  ['/produtos/:id/portal', (p) => <ProductPortalView id={p.id} />],
  ['/portal', () => <PortalConfigView />],
  ['/sessoes', () => <CheckoutSessionsView />],
  ['/sessoes/:id', (p) => <CheckoutSessionDetailView id={p.id} />],
  ['/assinaturas', () => <SubscriptionsView />],
  ['/assinaturas/:id', (p) => <SubscriptionDetailView id={p.id} />],
  ['/vendas', () => <TransactionsView />],
  ['/vendas/:id', (p) => <TransactionDetailView id={p.id} />],
  ['/clientes', () => <CustomersView />],
  ['/clientes/:uuid', (p) => <CustomerDetailView uuid={p.uuid} />],
  ['/configuracoes/perfil', () => <BusinessProfileView />],
  ['/configuracoes/equipe', () => <TeamView />],
  ['/configuracoes/multa-e-juros', () => <LateChargeSettingsView />],
  ['/configuracoes/regua-de-cobranca', () => <ReminderScheduleView />],
  ['/convite', () => <InvitationView />],
];

/** Views of a visitor who is not signed in. */
const PUBLIC_VIEWS: Partial<Record<string, () => ReactNode>> = {
  '/entrar': () => <LoginView />,
  '/cadastro': () => <SignUpView />,
  '/confirmar': () => <ConfirmView />,
  '/esqueci-a-senha': () => <ForgotPasswordView />,
  '/nova-senha': () => <ResetPasswordView />,
  '/convite': () => <InvitationSignedOutView />,
};

/** Views with a signed-out and a signed-in form (an invitation's link works before and after a login). */
const BOTH_VIEWS = new Set(['/convite']);

export function App() {
  const [environment, setEnvironment] = useState<Environment>('test');
  const [sellerId, setSellerId] = useState<number | null>(null);
  const value = useMemo(() => {
    let current: Environment = 'test';
    let seller: number | null = null;
    const holder = { environment: () => current, seller: () => seller };
    const queryClient = new QueryClient({
      defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
    });
    const session: Session = new Session({
      async refresh() {
        const { data, response } = await api.POST('/api/auth/refresh');
        return response.ok && data ? data : null;
      },
      async logout() {
        await must(api.POST('/api/auth/logout'));
      },
    });
    const api = createApi({
      token: () => session.token(),
      environment: () => holder.environment(),
      seller: () => holder.seller(),
      onUnauthorized: () => session.end(),
    });
    session.subscribe(() => {
      if (session.state === 'signedOut') {
        queryClient.clear();
        seller = null;
      }
    });
    return {
      api,
      session,
      queryClient,
      setCurrent: (next: Environment) => {
        current = next;
      },
      setSeller: (next: number | null) => {
        seller = next;
      },
    };
  }, []);
  useEffect(() => {
    void value.session.start();
  }, [value]);
  // A new login starts on its own seller.
  useEffect(
    () =>
      value.session.subscribe(() => {
        if (value.session.state === 'signedOut') setSellerId(null);
      }),
    [value],
  );
  const context: AppContextValue = {
    api: value.api,
    session: value.session,
    environment,
    setEnvironment: (next) => {
      value.setCurrent(next);
      setEnvironment(next);
    },
    sellerId,
    setSellerId: (next) => {
      value.setSeller(next);
      setSellerId(next);
      // Nothing of the previous seller may show under the next one.
      void value.queryClient.resetQueries();
      navigate('/');
    },
  };
  return (
    <AppContext.Provider value={context}>
      <QueryClientProvider client={value.queryClient}>
        <Routes session={value.session} />
      </QueryClientProvider>
    </AppContext.Provider>
  );
}

function Routes({ session }: { session: Session }) {
  const state = useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.state,
  );
  const { path } = useLocation();
  const publicView = state !== 'signedOut' && BOTH_VIEWS.has(path) ? undefined : PUBLIC_VIEWS[path];
  useEffect(() => {
    if (state === 'signedOut' && !publicView) navigate('/entrar', { replace: true });
    if (state === 'signedIn' && publicView) {
      navigate('/', { replace: true });
      resumeInvitation();
    }
  }, [state, publicView]);
  if (state === 'starting') return <p className="boot">Carregando o painel…</p>;
  if (state === 'signedOut') return publicView ? publicView() : null;
  if (publicView) return null;
  for (const [pattern, view] of VIEWS) {
    const params = match(pattern, path);
    if (params)
      return (
        <Shell>
          <Suspense fallback={<Loading />}>{view(params)}</Suspense>
        </Shell>
      );
  }
  return (
    <Shell>
      <PageTitle>Página não encontrada</PageTitle>
    </Shell>
  );
}
