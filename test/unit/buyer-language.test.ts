import { describe, expect, it } from 'vitest';
import { httpGroups } from '#infra/routes';
import { AUTH_FAILURES, authFailure, NotFoundError, toErrorBody, ValidationError } from '#shared/errors';
import { inPortuguese, isBuyerRoute } from '#shared/http/buyer-language';
import { routeKey } from '#shared/http/types';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const bodyOf = (error: unknown) => toErrorBody(error, '/x', NOW);

describe('the route families', () => {
  it("are the buyer's (hosted pages and the routes their scripts call) and the seller's (every other)", () => {
    const buyer = httpGroups
      .flatMap((g) => g.routes)
      .filter(isBuyerRoute)
      .map(routeKey)
      .sort();
    expect(buyer).toEqual(
      [
        'GET /api/public/checkout/{ref}',
        'POST /api/public/checkout/{ref}/pay',
        'GET /api/public/checkout/{ref}/payments/{paymentId}',
        'GET /pay/{productUuid}',
        'GET /checkout/{id}',
        'GET /pages/assets/{file}',
        'GET /portal',
        'GET /minha-area',
        'GET /carne/{token}',
        'GET /pages/themes/{color}',
        'GET /api/portal',
        'POST /api/portal/subscriptions/{id}/cancel',
        'POST /api/portal/subscriptions/{id}/pause',
        'POST /api/portal/subscriptions/{id}/resume',
        'POST /api/portal/subscriptions/{id}/reactivate',
        'POST /api/portal/subscriptions/{id}/update-payment-method',
        'POST /api/portal/subscriptions/{id}/add-card-and-update',
        'GET /api/portal/subscriptions/{id}/events',
        'PUT /api/portal/customer-info',
        'GET /cobranca/{payToken}',
        'GET /cobranca/assets/{file}',
        'GET /api/public/cobranca/{payToken}',
        'POST /api/public/cobranca/{payToken}/card',
        'POST /api/public/minha-area/request',
        'GET /api/public/minha-area/charges',
        'PATCH /api/public/minha-area/profile',
      ].sort(),
    );
  });
});

describe('inPortuguese', () => {
  it('words every 401 in Portuguese, keeping its code', () => {
    for (const reason of Object.keys(AUTH_FAILURES) as (keyof typeof AUTH_FAILURES)[]) {
      const english = bodyOf(authFailure(reason));
      const answer = inPortuguese(english);
      expect(answer.code).toBe(english.code);
      expect(answer.message, reason).not.toBe(english.message);
      expect(answer.message, reason).toMatch(/link de acesso/i);
    }
  });

  it('words the messages the shared use cases write in English, by code or by message', () => {
    expect(inPortuguese(bodyOf(new NotFoundError('Subscription not found'))).message).toBe(
      'Assinatura não encontrada.',
    );
    expect(inPortuguese(bodyOf(new Error('boom')))).toMatchObject({
      statusCode: 500,
      message: 'Erro interno. Tente novamente em instantes.',
    });
  });

  it('keeps a validation answer and a message already in Portuguese as they are', () => {
    const validation = bodyOf(new ValidationError(['email must be a valid e-mail']));
    expect(inPortuguese(validation)).toEqual(validation);
    const portuguese = bodyOf(new NotFoundError('Cobrança não encontrada'));
    expect(inPortuguese(portuguese)).toEqual(portuguese);
  });
});
