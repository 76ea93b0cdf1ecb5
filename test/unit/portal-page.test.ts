import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { portalPage } from '#shared/domain/pages/portal';
import {
  cardText,
  formatSaoPauloDay,
  intervalText,
  recurringPrice,
  statusLabel,
} from '#shared/domain/pages/portal-format';
import {
  type PortalPageData,
  type PortalSubscription,
  renderPortalExpiredPage,
  renderPortalPage,
} from '#shared/domain/pages/portal-page';
import { contrastRatio, themeColor, themeCss, themeHref } from '#shared/domain/pages/portal-theme';
import type { PortalSession } from '#shared/domain/portal/session';
import { portalTokenHash } from '#shared/domain/portal/session';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { customerProfile } from '#test/support/fixtures';
import {
  doneMessage,
  fieldErrors,
  historyLine,
  refusalMessage,
} from '../../functions/pages/assets/portal.js';
import { FakeAttemptRepository } from '../support/fakes/attempt-repository';
import { FakeClock } from '../support/fakes/clock';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { FakePaymentMethodRepository } from '../support/fakes/payment-method-repository';
import { FakePortalConfigRepository } from '../support/fakes/portal-config-repository';
import { FakePortalSessionRepository } from '../support/fakes/portal-session-repository';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { FakeSubscriptionRepository } from '../support/fakes/subscription-repository';
import { FakeTeamRepository } from '../support/fakes/team-repository';

const NBSP = '\u00a0';
const NOW = new Date('2030-03-10T15:00:00.000Z');

const ALL_ACTIONS = {
  cancel: true,
  pause: true,
  resume: false,
  reactivate: false,
  updatePaymentMethod: true,
  viewInvoices: true,
};

function subscription(overrides: Partial<PortalSubscription> = {}): PortalSubscription {
  return {
    id: 7,
    status: 'active',
    collectionMethod: 'card',
    currentPeriodEnd: '2030-04-01T03:00:00.000Z',
    trialEndsAt: null,
    cancelAt: null,
    cancelledAt: null,
    pauseCollection: null,
    nextPaymentAt: '2030-04-01T03:00:00.000Z',
    failedPaymentCount: 0,
    environment: 'test',
    subscriptionPrice: {
      name: 'Plano mensal',
      unitAmount: 49.9,
      billingInterval: 'month',
      intervalCount: 1,
      product: { name: 'Clube do Violão' },
    },
    paymentMethod: { id: 3, cardLast4: '1111', cardBrand: 'visa' },
    actions: ALL_ACTIONS,
    cancelRules: { atPeriodEndOnly: false, reasonRequired: false },
    ...overrides,
  };
}

function data(
  overrides: Partial<PortalPageData> = {},
  config: Partial<PortalPageData['configuration']> = {},
) {
  return {
    returnUrl: 'https://loja.example.com/conta',
    customer: { name: 'Maria Souza', email: 'maria@example.com', phone: '11987654321' },
    configuration: {
      businessName: 'Escola de Música Lá',
      logoUrl: 'https://cdn.example.com/logo.png',
      primaryColor: '#257264',
      allowUpdateBillingInfo: true,
      customWelcomeText: null,
      customSuccessMessage: null,
      customCancellationMessage: null,
      ...config,
    },
    subscriptions: [subscription()],
    paymentMethods: [
      { id: 3, brand: 'visa', last4: '1111', expiryMonth: 12, expiryYear: 2034 },
      { id: 4, brand: 'mastercard', last4: '5454', expiryMonth: 1, expiryYear: 2031 },
    ],
    ...overrides,
  } satisfies PortalPageData;
}

const buttons = (page: string, id = 7) =>
  [...page.matchAll(new RegExp(`<button[^>]*data-subscription="${id}"[^>]*>([^<]*)<`, 'g'))].map((m) => m[1]);

describe('portal formats', () => {
  it.each([
    ['2030-04-01T03:00:00.000Z', '01/04/2030'],
    // 00:30 UTC is still the previous evening in Sao Paulo.
    ['2030-04-01T00:30:00.000Z', '31/03/2030'],
    ['2030-12-31T23:59:00.000Z', '31/12/2030'],
  ])('formatSaoPauloDay(%s) is %s', (iso, expected) => {
    expect(formatSaoPauloDay(iso)).toBe(expected);
  });

  it.each([
    ['month', 1, 'por mês'],
    ['month', 3, 'a cada 3 meses'],
    ['week', 1, 'por semana'],
    ['week', 2, 'a cada 2 semanas'],
    ['year', 1, 'por ano'],
  ] as const)('intervalText(%s, %d) is %s', (interval, count, expected) => {
    expect(intervalText(interval, count)).toBe(expected);
  });

  it('writes a recurring price in Reais with a no-break space', () => {
    expect(recurringPrice(1234.5, 'month', 1)).toBe(`R$${NBSP}1.234,50 por mês`);
  });

  it.each([
    [{ status: 'active' }, 'Ativa', 'ok'],
    [{ status: 'active', pauseCollection: { pausedAt: '2030-03-01T00:00:00.000Z' } }, 'Pausada', 'muted'],
    [{ status: 'active', trialEndsAt: '2030-03-20T00:00:00.000Z' }, 'Período de teste', 'info'],
    [{ status: 'active', trialEndsAt: '2030-03-01T00:00:00.000Z' }, 'Ativa', 'ok'],
    [{ status: 'active', failedPaymentCount: 1 }, 'Pagamento pendente', 'warn'],
    [{ status: 'pending' }, 'Aguardando pagamento', 'info'],
    [{ status: 'pending_cancellation' }, 'Cancelamento agendado', 'warn'],
    [{ status: 'canceled' }, 'Cancelada', 'muted'],
    [{ status: 'failed' }, 'Pagamento recusado', 'bad'],
  ])('shows %j as %s', (facts, text, tone) => {
    const s = { trialEndsAt: null, pauseCollection: null, failedPaymentCount: 0, ...facts };
    expect(statusLabel(s, NOW)).toEqual({ text, tone });
  });

  it('names a card by brand and last four digits', () => {
    expect(cardText('visa', '1234')).toBe('Visa ····1234');
    expect(cardText('unknown', '1234')).toBe('Cartão ····1234');
    expect(cardText('hipercard', '9999')).toBe('hipercard ····9999');
  });
});

describe('portal theme', () => {
  it.each([
    ['#257264', '257264'],
    ['#ABC', 'aabbcc'],
    ['#FfA500', 'ffa500'],
    ['red', '257264'],
    ['#12345', '257264'],
    ['#257264;}body{display:none', '257264'],
    [null, '257264'],
  ])('themeColor(%j) is %s', (input, expected) => {
    expect(themeColor(input)).toBe(expected);
  });

  it('links the colour as a style sheet of this origin', () => {
    expect(themeHref('#0A0B0C')).toBe('/pages/themes/0a0b0c');
  });

  it('puts white text on a dark brand and dark text on a light one', () => {
    expect(themeCss('257264')).toContain('--brand:#257264;--brand-text:#ffffff;--brand-ink:#257264');
    expect(themeCss('ffd600')).toContain('--brand:#ffd600;--brand-text:#111827;--brand-ink:#111827');
  });

  it('always picks the better-reading text colour on the brand, and brand text on white only at 4.5:1 or more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (n) => {
        const color = n.toString(16).padStart(6, '0');
        const css = themeCss(color);
        const text = /--brand-text:#([0-9a-f]{6})/.exec(css)?.[1] ?? '';
        const ink = /--brand-ink:#([0-9a-f]{6})/.exec(css)?.[1] ?? '';
        const best = Math.max(contrastRatio(color, 'ffffff'), contrastRatio(color, '111827'));
        expect(contrastRatio(color, text)).toBe(best);
        expect(contrastRatio(ink, 'ffffff')).toBeGreaterThanOrEqual(4.5);
        expect(css).toMatch(/^:root\{[^{}<>]*\}\n$/);
      }),
    );
  });
});

describe('renderPortalPage', () => {
  it('shows the business, the welcome and the subscription in Portuguese', () => {
    const page = renderPortalPage(data({}, { customWelcomeText: 'Bem-vinda à escola!\nBoas aulas.' }), NOW);
    expect(page).toMatch(/^<!doctype html>\n<html lang="pt-BR">/);
    expect(page).toContain('<p class="portal-business" id="business-name">Escola de Música Lá</p>');
    expect(page).toContain('<title>Escola de Música Lá · Minhas assinaturas</title>');
    expect(page).toContain('<h1 id="greeting">Olá, Maria!</h1>');
    expect(page).toContain('Bem-vinda à escola!\nBoas aulas.');
    expect(page).toContain('<h3 id="sub-title-7">Clube do Violão</h3>');
    expect(page).toContain('<p class="sub-plan">Plano mensal</p>');
    expect(page).toContain('<span class="status status-ok" id="status-7">Ativa</span>');
    expect(page).toContain(`<dt>Valor</dt><dd>R$${NBSP}49,90 por mês</dd>`);
    expect(page).toContain('<dt>Próxima cobrança</dt><dd>01/04/2030</dd>');
    expect(page).toContain('<dt>Cartão</dt><dd>Visa ····1111</dd>');
    expect(page).toContain('src="https://cdn.example.com/logo.png"');
    expect(page).toContain('href="https://loja.example.com/conta"');
    expect(page).toContain('Ambiente de teste');
  });

  it('loads its style sheets, theme and script from this origin and has nothing inline', () => {
    const page = renderPortalPage(data({}, { primaryColor: '#C2185B' }), NOW);
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.filter((s) => s.startsWith('/'))).toEqual([
      '/pages/assets/checkout.css',
      '/pages/assets/portal.css',
      '/pages/themes/c2185b',
      '/pages/assets/portal.js',
    ]);
    expect(page).not.toMatch(/<script>|<script(?![^>]*\ssrc=)|<style|\sstyle=|\son\w+=/);
  });

  it('shows only the buttons the actions allow', () => {
    expect(buttons(renderPortalPage(data(), NOW))).toEqual([
      'Trocar cartão',
      'Pausar',
      'Cancelar',
      'Ver histórico de pagamentos',
    ]);
    const none = {
      cancel: false,
      pause: false,
      resume: false,
      reactivate: false,
      updatePaymentMethod: false,
      viewInvoices: true,
    };
    const page = renderPortalPage(data({ subscriptions: [subscription({ actions: none })] }), NOW);
    expect(buttons(page)).toEqual(['Ver histórico de pagamentos']);
    expect(page).not.toContain('cancel-dialog-7');
    expect(page).not.toContain('card-dialog-7');
    const paused = subscription({
      pauseCollection: { pausedAt: '2030-03-05T12:00:00.000Z' },
      actions: { ...none, resume: true, cancel: true },
    });
    const pausedPage = renderPortalPage(data({ subscriptions: [paused] }), NOW);
    expect(buttons(pausedPage)).toEqual(['Retomar', 'Cancelar', 'Ver histórico de pagamentos']);
    expect(pausedPage).toContain('<dt>Próxima cobrança</dt><dd>Pausada</dd>');
    expect(pausedPage).toContain('pausadas desde 05/03/2030');
    const canceled = subscription({
      status: 'canceled',
      cancelledAt: '2030-03-09T12:00:00.000Z',
      actions: { ...none, reactivate: true },
    });
    const canceledPage = renderPortalPage(data({ subscriptions: [canceled] }), NOW);
    expect(buttons(canceledPage)).toEqual(['Reativar', 'Ver histórico de pagamentos']);
    expect(canceledPage).toContain('<dt>Cancelada em</dt><dd>09/03/2030</dd>');
  });

  it("has no history where the subscription's actions refuse it, and no billing form without allowUpdateBillingInfo", () => {
    const noHistory = subscription({ actions: { ...ALL_ACTIONS, viewInvoices: false } });
    const page = renderPortalPage(
      data({ subscriptions: [noHistory] }, { allowUpdateBillingInfo: false }),
      NOW,
    );
    expect(page).not.toContain('data-action="history"');
    expect(page).not.toContain('billing-form');
    expect(page).toContain('<dd id="customer-name">Maria Souza</dd>');
    const open = renderPortalPage(data(), NOW);
    expect(open).toContain('data-action="history"');
    expect(open).toContain('<form id="billing-form"');
  });

  it('offers the end of the period or now, and a reason field optional unless required', () => {
    const page = renderPortalPage(data(), NOW);
    expect(page).toContain('value="period_end" checked> No fim do período (01/04/2030)');
    expect(page).toContain('value="now"> Agora');
    expect(page).toContain('Motivo do cancelamento (opcional)');
    expect(page).not.toMatch(/id="cancel-reason-7"[^>]*required/);
  });

  it('says "no fim do período" with no choice and requires the reason by the subscription\'s own cancel rules', () => {
    const strict = subscription({ cancelRules: { atPeriodEndOnly: true, reasonRequired: true } });
    const page = renderPortalPage(data({ subscriptions: [strict] }), NOW);
    expect(page).toContain('A assinatura será cancelada no fim do período, em 01/04/2030.');
    expect(page).not.toContain('value="now"');
    expect(page).toMatch(/id="cancel-reason-7"[^>]*required/);
    expect(page).toContain('>Motivo do cancelamento</label>');
  });

  it("draws each subscription's history and cancel dialog by that subscription's own rules", () => {
    const strict = subscription({
      id: 8,
      actions: { ...ALL_ACTIONS, viewInvoices: false },
      cancelRules: { atPeriodEndOnly: true, reasonRequired: true },
    });
    const page = renderPortalPage(data({ subscriptions: [subscription(), strict] }), NOW);

    expect(page).toContain('data-action="history" data-subscription="7"');
    expect(page).not.toContain('data-action="history" data-subscription="8"');
    expect(page).toContain('name="when-7" value="now"');
    expect(page).not.toContain('name="when-8"');
    expect(page).not.toMatch(/id="cancel-reason-7"[^>]*required/);
    expect(page).toMatch(/id="cancel-reason-8"[^>]*required/);
  });

  it('offers the other saved cards and a new card, whose inputs have no name', () => {
    const page = renderPortalPage(data(), NOW);
    expect(page).toContain('value="4" checked> Mastercard ····5454');
    expect(page).not.toContain('value="3"');
    expect(page).toContain('value="new"> Um novo cartão');
    expect(page).toMatch(/id="new-card-7" hidden/);
    expect(page).not.toMatch(/<(?:input|select|textarea)(?![^>]*type="radio")[^>]*\sname=/);
    const onlyNew = renderPortalPage(data({ paymentMethods: [] }), NOW);
    expect(onlyNew).toContain('value="new" checked>');
    expect(onlyNew).not.toMatch(/id="new-card-7" hidden/);
  });

  it('hands the custom messages to the script as escaped attributes', () => {
    const page = renderPortalPage(
      data({}, { customSuccessMessage: 'Feito "já"!', customCancellationMessage: 'Sentiremos sua falta <3' }),
      NOW,
    );
    expect(page).toContain('data-success-message="Feito &quot;já&quot;!"');
    expect(page).toContain('data-cancellation-message="Sentiremos sua falta &lt;3"');
  });

  it('renders seller and customer text as text, never as markup', () => {
    const xss = '<script>alert(1)</script>';
    const page = renderPortalPage(
      data(
        {
          returnUrl: 'javascript:alert(2)',
          customer: { name: `"><img src=x onerror=alert(3)>`, email: 'x@example.com', phone: null },
          subscriptions: [
            subscription({
              subscriptionPrice: { ...subscription().subscriptionPrice, product: { name: xss }, name: xss },
            }),
          ],
        },
        {
          businessName: xss,
          logoUrl: 'javascript:alert(4)',
          customWelcomeText: '<b onmouseover=alert(5)>oi</b>',
          primaryColor: 'red;}</style><script>',
        },
      ),
      NOW,
    );
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<b onmouseover');
    expect(page).not.toContain('javascript:');
    expect(page).toContain(
      '<p class="portal-business" id="business-name">&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
    expect(page).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; · Minhas assinaturas</title>');
    expect(page).not.toContain('portal-logo');
    expect(page).not.toContain('return-link');
    expect(page).toContain('/pages/themes/257264');
  });

  it('shows a plain-http logo to nobody (the CSP loads https images only)', () => {
    const page = renderPortalPage(data({}, { logoUrl: 'http://cdn.example.com/logo.png' }), NOW);
    expect(page).not.toContain('portal-logo');
  });

  it('says so when the customer has no subscription', () => {
    const page = renderPortalPage(data({ subscriptions: [] }), NOW);
    expect(page).toContain('Você não tem assinaturas com Escola de Música Lá.');
    expect(page).not.toContain('Ambiente de teste');
  });

  it('tells a customer whose renewal failed when it is retried', () => {
    const page = renderPortalPage(
      data({
        subscriptions: [subscription({ failedPaymentCount: 1, nextPaymentAt: '2030-03-13T15:00:00.000Z' })],
      }),
      NOW,
    );
    expect(page).toContain('Faremos uma nova tentativa em 13/03/2030');
  });
});

describe('renderPortalExpiredPage', () => {
  it('says the link expired, with no data and no script', () => {
    const page = renderPortalExpiredPage();
    expect(page).toContain('<h1>Link expirado</h1>');
    expect(page).not.toContain('<script');
    expect(page).toContain('/pages/themes/257264');
  });
});

describe('the portal script helpers', () => {
  it('writes history lines in Portuguese with the payment amount', () => {
    expect(
      historyLine({
        eventType: 'payment_success',
        eventData: { amount: 49.9, transactionId: 12 },
        createdAt: '2030-04-01T03:00:00.000Z',
      }),
    ).toEqual({ date: '01/04/2030', what: 'Pagamento aprovado', amount: `R$${NBSP}49,90`, failed: false });
    expect(
      historyLine({
        eventType: 'payment_failed',
        eventData: { amount: 49.9 },
        createdAt: '2030-04-01T03:00:00.000Z',
      }).failed,
    ).toBe(true);
    expect(
      historyLine({
        eventType: 'subscription.canceled',
        eventData: { atPeriodEnd: true },
        createdAt: '2030-04-01T03:00:00.000Z',
      }).what,
    ).toBe('Cancelamento agendado para o fim do período');
  });

  it('prefers the seller custom messages', () => {
    expect(doneMessage('pause', { success: '', cancellation: '' })).toBe(
      'Cobranças pausadas. Você pode retomá-las quando quiser.',
    );
    expect(doneMessage('pause', { success: 'Tudo certo!', cancellation: 'Até logo' })).toBe('Tudo certo!');
    expect(doneMessage('cancel', { success: 'Tudo certo!', cancellation: 'Até logo' })).toBe('Até logo');
    expect(
      doneMessage(
        'cancel',
        { success: '', cancellation: '' },
        { atPeriodEnd: true, periodEnd: '01/04/2030' },
      ),
    ).toBe('Cancelamento agendado. Você continua com acesso até 01/04/2030.');
  });

  it('maps API validation messages to the inputs of the dialog', () => {
    expect(fieldErrors(['reason is required'], '7')).toEqual({
      byInput: { 'cancel-reason-7': 'Informe o motivo do cancelamento.' },
      general: [],
    });
    expect(fieldErrors(['cardNumber must be 12 to 19 digits', 'email must be a valid e-mail'], '9')).toEqual({
      byInput: { 'card-number-9': 'Confira o número do cartão.', 'info-email': 'Informe um e-mail válido.' },
      general: [],
    });
    expect(fieldErrors(['something else']).general).toEqual([
      'Confira os dados informados e tente novamente.',
    ]);
  });

  it('explains refusals in Portuguese', () => {
    expect(refusalMessage(403, { message: 'Insufficient permissions' })).toBe(
      'Esta ação não está disponível para esta assinatura.',
    );
    expect(
      refusalMessage(409, {
        message: 'Subscription could not be reactivated: the payment was declined (insufficient_funds)',
      }),
    ).toBe('O cartão foi recusado pelo banco emissor. Use outro cartão.');
    expect(refusalMessage(409, { message: 'Subscription cannot be paused: it is canceled' })).toContain(
      'mudou de situação',
    );
  });
});

describe('portalPage (GET /portal)', () => {
  const SELLER: Tenant = { sellerId: 7, environment: 'test' };
  const TOKEN = `pt_${'A'.repeat(43)}`;
  const MARIA = { id: 41, uuid: '4b0d3c4e-8a51-4d4e-9a43-4c9a3f0b2a11' };

  async function setup(withProfile = true) {
    const clock = new FakeClock('2030-03-10T15:00:00.000Z');
    const portalSessions = new FakePortalSessionRepository();
    const customers = new FakeCustomerRepository();
    const portalConfigs = new FakePortalConfigRepository(new FakeProductRepository());
    const session: PortalSession = {
      id: 1,
      tokenHash: portalTokenHash(TOKEN),
      tenant: SELLER,
      customer: MARIA,
      productId: null,
      returnUrl: null,
      expiresAt: '2030-03-10T16:00:00.000Z',
      createdAt: '2030-03-10T15:00:00.000Z',
    };
    await portalSessions.create(session);
    if (withProfile)
      await customers.addProfile(
        customerProfile({ tenant: SELLER, ...MARIA, createdAt: '2030-03-10T15:00:00.000Z' }),
      );
    await portalConfigs.replace(SELLER, undefined, { businessName: 'Escola Lá' }, '2030-03-10T15:00:00.000Z');
    const deps = {
      portalSessions,
      customers,
      portalConfigs,
      team: new FakeTeamRepository(),
      subscriptions: new FakeSubscriptionRepository(),
      paymentMethods: new FakePaymentMethodRepository(),
      attempts: new FakeAttemptRepository(),
      clock,
    };
    return { deps, clock };
  }

  it('draws the portal of a live token', async () => {
    const { deps } = await setup();
    const answer = await portalPage(deps, { token: TOKEN });
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('<p class="portal-business" id="business-name">Escola Lá</p>');
    expect(answer.html).toContain('Olá, Maria!');
  });

  it.each([
    ['no token', undefined],
    ['a malformed token', '<script>'],
    ['an unknown token', `pt_${'B'.repeat(43)}`],
  ])('answers the expired page with 401 for %s', async (_, token) => {
    const { deps } = await setup();
    const answer = await portalPage(deps, { token });
    expect(answer.status).toBe(401);
    expect(answer.html).toContain('Link expirado');
    expect(answer.html).not.toContain('Maria');
  });

  it('answers the expired page with 401 once the hour is over', async () => {
    const { deps, clock } = await setup();
    clock.advanceSeconds(3600);
    const answer = await portalPage(deps, { token: TOKEN });
    expect(answer.status).toBe(401);
    expect(answer.html).not.toContain('Escola Lá');
  });

  it('draws the subscription an action just changed from its own consistent read, not the lagging index', async () => {
    const { deps } = await setup();
    const now = '2030-03-01T15:00:00.000Z';
    const before: Subscription = {
      id: 301,
      uuid: '00000000-0000-4000-a000-000000000301',
      tenant: SELLER,
      status: 'active',
      customer: { ...MARIA, name: 'Maria Souza', email: 'maria@example.com', document: '52998224725' },
      price: {
        id: 9,
        uuid: '00000000-0000-4000-b000-000000000009',
        name: 'Plano mensal',
        unitAmount: 4990,
        billingInterval: 'month',
        intervalCount: 1,
        trialDays: 0,
        product: { id: 12, uuid: '00000000-0000-4000-8000-000000000012', name: 'Clube do livro' },
      },
      collectionMethod: 'card',
      paymentMethod: { id: 71, cardLast4: '4071', cardBrand: 'mastercard' },
      pixAuthorizationId: null,
      billingAnchor: now,
      billingCycle: 1,
      currentPeriodStart: now,
      currentPeriodEnd: '2030-04-01T15:00:00.000Z',
      trialEndsAt: null,
      cancelAt: null,
      cancelledAt: null,
      cancelAtPeriodEnd: false,
      cancelReason: null,
      pausedAt: null,
      lastPaymentAt: now,
      nextPaymentAt: '2030-04-01T15:00:00.000Z',
      failedPaymentCount: 0,
      dueAt: '2030-04-01T15:00:00.000Z',
      pendingCharge: null,
      checkoutSessionId: null,
      metadata: {},
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const store = new FakeSubscriptionRepository();
    store.seed({ ...before, status: 'pending_cancellation', cancelAt: before.currentPeriodEnd, version: 2 });
    // The index still answers the state before the cancellation.
    store.listByCustomer = async () => [before];
    const lagging = store;
    const stale = await portalPage({ ...deps, subscriptions: lagging }, { token: TOKEN });
    expect(stale.html).toContain('<span class="status status-ok" id="status-301">Ativa</span>');
    const fresh = await portalPage({ ...deps, subscriptions: lagging }, { token: TOKEN, updated: '301' });
    expect(fresh.html).toContain(
      '<span class="status status-warn" id="status-301">Cancelamento agendado</span>',
    );
    expect(fresh.html).toContain('data-action="reactivate" data-subscription="301"');
    // Another customer's subscription or a malformed id changes nothing.
    store.seed({ ...before, id: 302, customer: { ...before.customer, id: 99 }, status: 'canceled' });
    const other = await portalPage({ ...deps, subscriptions: lagging }, { token: TOKEN, updated: '302' });
    expect(other.html).not.toContain('status-302');
    const junk = await portalPage({ ...deps, subscriptions: lagging }, { token: TOKEN, updated: '1e3' });
    expect(junk.html).toContain('id="status-301">Ativa</span>');
  });

  it('answers the same page with 404 when the customer is gone', async () => {
    const { deps } = await setup(false);
    const answer = await portalPage(deps, { token: TOKEN });
    expect(answer.status).toBe(404);
    expect(answer.html).toContain('Link expirado');
  });
});
