import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { CheckoutView, PaymentOutcome } from '#shared/domain/checkout/public';
import {
  renderCheckoutPage,
  renderNotFoundPage,
  subscriptionPriceText,
} from '#shared/domain/pages/checkout-page';
import { formatBrl, installmentOptions } from '#shared/domain/pages/format';
import { escapeHtml, html, safeUrl } from '#shared/domain/pages/html';
import { checkoutPage } from '#shared/domain/pages/page';
import { NotFoundError, ServiceUnavailableError } from '#shared/errors';

const PRODUCT_UUID = '3f0c8a52-6a8e-4c51-9a57-0d3c1b2e4f60';
const NBSP = '\u00a0';

function view(overrides: Partial<CheckoutView> = {}): CheckoutView {
  return {
    kind: 'session',
    ref: 'cs_test_abc123',
    state: 'open',
    unavailableReason: null,
    environment: 'test',
    product: {
      uuid: PRODUCT_UUID,
      name: 'Curso de Violão',
      description: 'Aulas gravadas e ao vivo',
      image: 'https://cdn.example.com/violao.png',
      value: 49.9,
      methods: ['pix', 'boleto', 'card'],
      maxInstallments: 3,
    },
    price: null,
    customer: {
      name: 'Maria Souza',
      email: 'maria@example.com',
      document: '52998224725',
      phone: '11987654321',
      zipCode: '01310100',
      street: null,
      number: null,
      complement: null,
      neighborhood: null,
      city: 'São Paulo',
      state: 'SP',
    },
    successUrl: 'https://loja.example.com/obrigado?session=cs_test_abc123',
    cancelUrl: 'https://loja.example.com/carrinho',
    expiresAt: '2030-01-02T03:00:00.000Z',
    payment: null,
    seller: { name: 'Escola de Música', logoUrl: null, brandColor: null },
    ...overrides,
  };
}

/** An attribute's value as the browser reads it (the renderer escapes exactly these five). */
function attribute(page: string, element: string, name: string): string | undefined {
  const tag = new RegExp(`<[^>]*id="${element}"[^>]*>`).exec(page)?.[0] ?? '';
  const raw = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return raw
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('escapeHtml and html', () => {
  it('escapes the characters that open a tag, an entity or leave an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    );
  });

  it('escapes interpolated text but not nested fragments, and drops null, undefined and false', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${null}${undefined}${false}${['<', html`<br>`]}${3}</p>`.value).toBe(
      '<p><b>&lt;i&gt;</b>&lt;<br>3</p>',
    );
  });

  it('never lets interpolated text produce a tag or a quote', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = html`<p title="${text}">${text}</p>`.value;
        const inner = out.slice('<p title="'.length, -'</p>'.length);
        expect(inner.replace('">', '')).not.toMatch(/[<>"'`]/);
      }),
    );
  });

  it.each([
    ['https://loja.example.com/a?b=1', 'https://loja.example.com/a?b=1'],
    ['http://127.0.0.1:4000/ok', 'http://127.0.0.1:4000/ok'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['/relative', null],
    ['', null],
    [null, null],
  ])('safeUrl(%j) is %j', (input, expected) => {
    expect(safeUrl(input)).toBe(expected);
  });
});

describe('formatBrl and installmentOptions', () => {
  it('formats Reais as pt-BR currency', () => {
    expect(formatBrl(49.9)).toBe(`R$${NBSP}49,90`);
    expect(formatBrl(1234.5)).toBe(`R$${NBSP}1.234,50`);
  });

  it('lists 1 to the maximum, the first installment carrying the leftover centavos', () => {
    expect(installmentOptions(49.9, 3)).toEqual([
      { count: 1, label: `1x de R$${NBSP}49,90 (à vista)` },
      { count: 2, label: `2x de R$${NBSP}24,95 (total R$${NBSP}49,90)` },
      { count: 3, label: `3x de R$${NBSP}16,64 (total R$${NBSP}49,90)` },
    ]);
  });

  it('keeps at least one and at most twelve installments', () => {
    expect(installmentOptions(100, 0).map((o) => o.count)).toEqual([1]);
    expect(installmentOptions(100, 20)).toHaveLength(12);
  });
});

describe('renderCheckoutPage (open)', () => {
  it('shows the product, the price in pt-BR and a form prefilled from the session', () => {
    const page = renderCheckoutPage(view());
    expect(page).toMatch(/^<!doctype html>\n<html lang="pt-BR">/);
    expect(page).toContain('<h1 class="product-name" id="product-name">Curso de Violão</h1>');
    expect(page).toContain('<p class="product-description">Aulas gravadas e ao vivo</p>');
    expect(page).toContain('src="https://cdn.example.com/violao.png"');
    expect(page).toContain(`<p class="price" id="price">R$${NBSP}49,90</p>`);
    expect(page).toContain('<form id="pay-form"');
    expect(attribute(page, 'buyer-name', 'value')).toBe('Maria Souza');
    expect(attribute(page, 'buyer-email', 'value')).toBe('maria@example.com');
    expect(attribute(page, 'buyer-document', 'value')).toBe('52998224725');
    expect(attribute(page, 'buyer-phone', 'value')).toBe('11987654321');
    expect(attribute(page, 'cancel-link', 'href')).toBe('https://loja.example.com/carrinho');
    expect(page).toContain('Ambiente de teste');
  });

  it('loads one script and one style sheet from this origin and has nothing inline', () => {
    const page = renderCheckoutPage(view());
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.filter((s) => s.startsWith('/'))).toEqual([
      '/pages/assets/checkout.css',
      '/pages/assets/checkout.js',
    ]);
    expect(page).not.toMatch(/<script>|<script(?![^>]*\ssrc=)|<style|\sstyle=|\son\w+=/);
  });

  it('gives its inputs no name, so a form submitted without the script sends no card data', () => {
    const page = renderCheckoutPage(view());
    expect(page).toContain('id="card-number"');
    expect(page).not.toMatch(/<(?:input|select|textarea)[^>]*\sname=/);
  });

  it('offers tabs for the allowed methods only, the first selected', () => {
    const page = renderCheckoutPage(view({ product: { ...view().product, methods: ['boleto', 'card'] } }));
    expect([...page.matchAll(/role="tab" id="tab-(\w+)"/g)].map((m) => m[1])).toEqual(['card', 'boleto']);
    expect(page).not.toContain('panel-pix"');
    expect(page).toMatch(/id="tab-card"[^>]*aria-selected="true"/);
    expect(page).toMatch(/id="panel-boleto"[^>]*hidden/);
    expect(page).not.toMatch(/id="panel-card"[^>]*hidden/);
  });

  it('lists installments up to the product maximum', () => {
    const page = renderCheckoutPage(view());
    expect([...page.matchAll(/<option value="(\d+)">/g)].map((m) => m[1])).toEqual(['1', '2', '3']);
  });

  it('renders seller-controlled text as text, never as markup', () => {
    const xss = '<script>alert(1)</script>';
    const page = renderCheckoutPage(
      view({
        ref: 'cs_x',
        product: {
          ...view().product,
          name: xss,
          description: `"><img src=x onerror=alert(1)>`,
          image: 'javascript:alert(1)',
        },
        customer: { ...view().customer, name: `"><script>alert(2)</script>` },
        cancelUrl: 'javascript:alert(3)',
      }),
    );
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('javascript:');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('cancel-link');
    expect(page).not.toContain('product-image');
    expect(attribute(page, 'buyer-name', 'value')).toBe(`"><script>alert(2)</script>`);
    expect(page).toContain(`<title>&lt;script&gt;alert(1)&lt;/script&gt; · Pagamento</title>`);
  });

  it('hands a pending payment to the script as escaped JSON', () => {
    const payment: PaymentOutcome = {
      paymentId: '9d36b84f-c70b-478f-b95c-12729b90ca25',
      orderNumber: 7,
      receiptByEmail: false,
      status: 'pending',
      method: 'pix',
      value: 49.9,
      installments: 1,
      pix: {
        qrCode: '0002"01<>',
        qrCodeImage: 'data:image/svg+xml;base64,AAAA',
        expiresAt: '2030-01-01T00:00:00Z',
      },
      boleto: null,
      card: null,
      failure: null,
      redirectUrl: null,
      subscription: null,
    };
    const page = renderCheckoutPage(view({ payment }));
    expect(JSON.parse(attribute(page, 'checkout', 'data-payment') ?? '')).toEqual(payment);
    expect(JSON.parse(attribute(page, 'checkout', 'data-address') ?? '')).toEqual({
      zipCode: '01310100',
      city: 'São Paulo',
      state: 'SP',
    });
  });

  it('has no sandbox notice for live payments and no cancel link without a cancel URL', () => {
    const page = renderCheckoutPage(view({ environment: 'live', cancelUrl: null, kind: 'product' }));
    expect(page).not.toContain('Ambiente de teste');
    expect(page).not.toContain('cancel-link');
  });
});

describe('renderCheckoutPage (a subscription price)', () => {
  const price = {
    name: 'Mensal',
    unitAmount: 49.9,
    billingInterval: 'month' as const,
    intervalCount: 1,
    trialDays: 0,
  };

  it.each([
    [{}, `R$${NBSP}49,90 por mês`],
    [{ intervalCount: 3 }, `R$${NBSP}49,90 a cada 3 meses`],
    [{ billingInterval: 'week' as const }, `R$${NBSP}49,90 por semana`],
    [{ billingInterval: 'week' as const, intervalCount: 2 }, `R$${NBSP}49,90 a cada 2 semanas`],
    [{ billingInterval: 'year' as const, unitAmount: 499 }, `R$${NBSP}499,00 por ano`],
    [{ trialDays: 7 }, `7 dias grátis, depois R$${NBSP}49,90 por mês`],
    [{ trialDays: 1 }, `1 dia grátis, depois R$${NBSP}49,90 por mês`],
  ])('reads %j as %j', (patch, text) => {
    expect(subscriptionPriceText({ ...price, ...patch })).toBe(text);
  });

  it('shows the recurring price, keeps the card without asking, and hands the price to the script', () => {
    const page = renderCheckoutPage(
      view({ price, product: { ...view().product, methods: ['pix', 'card'] } }),
    );
    expect(page).toContain(`<p class="price" id="price">R$${NBSP}49,90 por mês</p>`);
    expect(page).toContain('id="card-save-note"');
    expect(page).not.toContain('id="card-save"');
    expect(page).not.toContain('id="card-installments"');
    expect(attribute(page, 'checkout', 'data-recurring')).toBe(`R$${NBSP}49,90 por mês`);
  });

  it('escapes the price name the seller wrote', () => {
    const page = renderCheckoutPage(view({ price: { ...price, name: '<b>Plano</b>' } }));
    expect(page).toContain('Assinatura · &lt;b&gt;Plano&lt;/b&gt;');
  });
});

describe('renderCheckoutPage (closed)', () => {
  it.each([
    [{ state: 'expired' } as const, 'Este link de pagamento expirou'],
    [{ state: 'complete' } as const, 'Pagamento confirmado'],
    [{ state: 'unavailable', unavailableReason: 'inactive' } as const, 'não está mais disponível'],
    [{ state: 'unavailable', unavailableReason: 'not_for_sale' } as const, 'não está à venda por este link'],
  ])('%j shows a message and no form, no inputs and no script', (state, message) => {
    const page = renderCheckoutPage(view(state));
    expect(page).toContain(message);
    expect(page).toContain('Curso de Violão');
    expect(page).not.toMatch(/<form|<input|<select|<script/);
  });

  it('links an expired session back to the cancel URL and a complete one to the success URL', () => {
    expect(renderCheckoutPage(view({ state: 'expired' }))).toContain(
      'href="https://loja.example.com/carrinho"',
    );
    expect(renderCheckoutPage(view({ state: 'complete' }))).toContain(
      'href="https://loja.example.com/obrigado?session=cs_test_abc123"',
    );
  });
});

describe('checkoutPage', () => {
  const deps = (result: Promise<CheckoutView>) => ({ checkoutView: vi.fn(() => result) });

  it('answers 200 with the page of the ref', async () => {
    const d = deps(Promise.resolve(view({ kind: 'product', ref: PRODUCT_UUID })));
    const answer = await checkoutPage(d, 'product', PRODUCT_UUID);
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('Curso de Violão');
    expect(d.checkoutView).toHaveBeenCalledWith(PRODUCT_UUID);
  });

  it('answers the 404 page when the view says not found', async () => {
    const answer = await checkoutPage(
      deps(Promise.reject(new NotFoundError('Checkout not found'))),
      'session',
      'cs_x',
    );
    expect(answer).toEqual({ status: 404, html: renderNotFoundPage() });
    expect(answer.html).toContain('Link de pagamento não encontrado');
  });

  it.each([
    ['product', 'cs_abc'],
    ['product', 'not-a-uuid'],
    ['session', PRODUCT_UUID],
    ['session', 'cs_<script>'],
    ['session', `cs_${'a'.repeat(62)}`],
    ['session', 'cs_a/b'],
  ] as const)('answers the 404 page for a %s ref %j without looking it up', async (kind, ref) => {
    const d = deps(Promise.resolve(view()));
    expect((await checkoutPage(d, kind, ref)).status).toBe(404);
    expect(d.checkoutView).not.toHaveBeenCalled();
  });

  it('answers 404 when a product path finds a session (or the other way round)', async () => {
    expect((await checkoutPage(deps(Promise.resolve(view())), 'product', PRODUCT_UUID)).status).toBe(404);
  });

  it('lets any other failure through to the error mapper', async () => {
    const failure = new ServiceUnavailableError('down');
    await expect(checkoutPage(deps(Promise.reject(failure)), 'session', 'cs_x')).rejects.toBe(failure);
  });
});
