import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fieldErrors,
  maskCardNumber,
  maskCvv,
  maskDocument,
  maskExpiry,
  maskPhone,
  parseExpiry,
  safeRedirect,
  successDetail,
  successTitle,
} from '../../functions/pages/assets/checkout.js';

describe('the page script masks', () => {
  it.each([
    ['', ''],
    ['529', '529'],
    ['5299', '529.9'],
    ['5299822', '529.982.2'],
    ['52998224725', '529.982.247-25'],
    ['529.982.247-25', '529.982.247-25'],
    // Past 11 digits the mask switches to CNPJ.
    ['112223330', '112.223.330'],
    ['112223330001', '11.222.333/0001'],
    ['11222333000181', '11.222.333/0001-81'],
    ['11.222.333/0001-81999', '11.222.333/0001-81'],
    // A letter makes it an alphanumeric CNPJ at once.
    ['12abc3450', '12.ABC.345/0'],
    ['12ABC34501DE35', '12.ABC.345/01DE-35'],
  ])('maskDocument(%j) is %j', (input, expected) => {
    expect(maskDocument(input)).toBe(expected);
  });

  it.each([
    ['', ''],
    ['1', '(1'],
    ['11', '(11'],
    ['119', '(11) 9'],
    ['1191234', '(11) 9123-4'],
    ['1131234567', '(11) 3123-4567'],
    ['11912345678', '(11) 91234-5678'],
    ['(11) 91234-56789', '(11) 91234-5678'],
  ])('maskPhone(%j) is %j', (input, expected) => {
    expect(maskPhone(input)).toBe(expected);
  });

  it.each([
    ['4111111111111111', '4111 1111 1111 1111'],
    ['41111', '4111 1'],
    ['4111 1111 1111 1111 999 9', '4111 1111 1111 1111 999'],
    ['abc', ''],
  ])('maskCardNumber(%j) is %j', (input, expected) => {
    expect(maskCardNumber(input)).toBe(expected);
  });

  it.each([
    ['1', '1'],
    ['12', '12'],
    ['123', '12/3'],
    ['1234', '12/34'],
    ['12/345', '12/34'],
  ])('maskExpiry(%j) is %j', (input, expected) => {
    expect(maskExpiry(input)).toBe(expected);
  });

  it('keeps up to four CVV digits', () => {
    expect(maskCvv('12a34 5')).toBe('1234');
  });

  it('is idempotent and keeps every significant character of what it accepts', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        for (const mask of [maskDocument, maskPhone, maskCardNumber, maskExpiry]) {
          expect(mask(mask(text))).toBe(mask(text));
        }
        const digits = text.replace(/\D/g, '');
        expect(maskPhone(text).replace(/\D/g, '')).toBe(digits.slice(0, 11));
        expect(maskCardNumber(text).replace(/\D/g, '')).toBe(digits.slice(0, 19));
      }),
    );
  });
});

describe('parseExpiry', () => {
  it.each([
    ['12/34', { month: 12, year: 2034 }],
    ['01/30', { month: 1, year: 2030 }],
    ['13/30', null],
    ['00/30', null],
    ['1/30', null],
    ['12/3', null],
  ])('parseExpiry(%j) is %j', (input, expected) => {
    expect(parseExpiry(input)).toEqual(expected);
  });
});

describe('fieldErrors', () => {
  it('maps the API field names to the inputs, in Portuguese', () => {
    expect(
      fieldErrors([
        'customer.document is not a valid CPF or CNPJ',
        'customer.phone must have 10 or 11 digits',
        'card.number is not a valid card number',
        'card.expiryYear must be at least 2000',
        'card.expiryMonth must be at most 12',
      ]),
    ).toEqual({
      byInput: {
        'buyer-document': 'Informe um CPF ou CNPJ válido.',
        'buyer-phone': 'Informe um telefone com DDD, com 10 ou 11 dígitos.',
        'card-number': 'Confira o número do cartão.',
        'card-expiry': 'Informe a validade no formato MM/AA.',
      },
      general: [],
    });
  });

  it('says something general for an address field or an unknown message, once', () => {
    expect(fieldErrors(['customer.zipCode must have 8 digits', 'x is wrong', 'y is wrong'])).toEqual({
      byInput: {},
      general: [
        'O endereço cadastrado para esta compra é inválido. Fale com o vendedor.',
        'Confira os dados informados e tente novamente.',
      ],
    });
  });

  it('accepts a single message string', () => {
    expect(fieldErrors('customer.email must be a valid e-mail').byInput).toEqual({
      'buyer-email': 'Informe um e-mail válido.',
    });
  });

  it('does not take a longer field name for a shorter one', () => {
    expect(fieldErrors(['customer.namespace is odd']).byInput).toEqual({});
  });
});

describe('safeRedirect', () => {
  it.each([
    ['https://loja.example.com/ok?s=cs_1', 'https://loja.example.com/ok?s=cs_1'],
    ['http://127.0.0.1:3000/ok', 'http://127.0.0.1:3000/ok'],
    ['javascript:alert(1)', null],
    ['data:text/html,x', null],
    ['not a url', null],
  ])('safeRedirect(%j) is %j', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});

describe('the page script after a subscription succeeded', () => {
  const NBSP = '\u00a0';
  const recurring = `R$${NBSP}49,90 por mês`;
  const paid = {
    status: 'paid',
    method: 'card',
    value: 49.9,
    installments: 1,
    card: { brand: 'visa', last4: '1111' },
    subscription: { status: 'active', trialEndsAt: null, nextPaymentAt: '2026-04-10T15:00:00.000Z' },
  };

  it('says the payment and the renewals on the same card', () => {
    expect(successTitle(paid)).toBe('Assinatura confirmada!');
    expect(successDetail(paid, recurring)).toBe(
      `Recebemos seu pagamento de R$${NBSP}49,90 no cartão final 1111. ` +
        `Sua assinatura está ativa (${recurring}); renovada automaticamente no mesmo cartão.`,
    );
  });

  it('says a pix subscription renews through Pix Automático', () => {
    const pix = { ...paid, method: 'pix', card: null };
    expect(successDetail(pix, recurring)).toContain('as renovações serão debitadas pelo Pix Automático.');
  });

  it('says a trial charged nothing and when the first charge is, in Sao Paulo days', () => {
    const trial = {
      ...paid,
      status: 'trialing',
      value: 0,
      subscription: { status: 'active', trialEndsAt: '2026-03-18T02:30:00.000Z', nextPaymentAt: null },
    };
    expect(successTitle(trial)).toBe('Teste grátis iniciado!');
    // 02:30 UTC on the 18th is still the 17th in Sao Paulo.
    expect(successDetail(trial, recurring)).toBe(
      `Nada foi cobrado agora. Seu cartão final 1111 está salvo: a assinatura (${recurring}) começa a ser cobrada em 17/03/2026.`,
    );
  });

  it('keeps the one-off sale text when the page sells no subscription', () => {
    expect(successDetail({ ...paid, installments: 3 }, undefined)).toBe(
      `Recebemos seu pagamento de R$${NBSP}49,90 no cartão final 1111 em 3x.`,
    );
  });

  it('gives the order number and says the receipt went to the e-mail only when it did', () => {
    const sale = { ...paid, orderNumber: 1043, receiptByEmail: true };
    expect(successDetail(sale, undefined)).toBe(
      `Recebemos seu pagamento de R$${NBSP}49,90 no cartão final 1111. Pedido nº 1043. Enviamos o recibo para o seu e-mail.`,
    );
    expect(successDetail({ ...sale, receiptByEmail: false }, undefined)).not.toContain('recibo');
  });
});
