import type { ErrorBody } from '#shared/errors';
import type { Route } from './types';

/**
 * One language per route family (docs/decisions.md, "Errors, language and health"). The seller's
 * API answers in English, except the texts the spec fixes in Portuguese (`Transação não
 * encontrada`, the 429). The buyer's routes answer in Portuguese: the hosted pages and the JSON
 * routes their scripts call (`/api/public/…`, the portal token routes, the customer area's
 * magic-link routes). The domain's messages are the seller contract's English; a buyer's route
 * renders them here, in one table.
 */
const PAGE_PATHS = ['/pay/', '/checkout/', '/pages/', '/cobranca/', '/carne/'];

export function isBuyerRoute(route: Pick<Route, 'path' | 'auth'>): boolean {
  return (
    route.path.startsWith('/api/public/') ||
    route.auth.includes('portalToken') ||
    route.auth.includes('magicLink') ||
    route.path === '/portal' ||
    route.path === '/minha-area' ||
    PAGE_PATHS.some((prefix) => route.path.startsWith(prefix))
  );
}

/** By the error's code: one sentence whatever detail the English message carries. */
const BY_CODE: Record<string, string> = {
  authorization_missing: 'Acesso não autorizado: abra o link de acesso que enviamos por e-mail.',
  authorization_scheme: 'Acesso não autorizado: abra o link de acesso que enviamos por e-mail.',
  credential_not_accepted: 'Acesso não autorizado: abra o link de acesso que enviamos por e-mail.',
  api_key_invalid: 'Este link de acesso não é válido.',
  api_key_revoked: 'Este link de acesso não é válido.',
  token_missing: 'Este link de acesso está incompleto. Abra o link que enviamos por e-mail.',
  token_invalid: 'Este link de acesso não é válido.',
  token_expired: 'Este link de acesso expirou. Peça um novo.',
  invalid_transition: 'Esta assinatura não permite esta ação na situação em que está.',
  payment_declined: 'O pagamento foi recusado. Use outro cartão.',
  provider_not_configured:
    'Este vendedor ainda não pode receber pagamentos reais; nada foi cobrado. Fale com o vendedor.',
  concurrent_update: 'Estes dados acabaram de mudar. Recarregue a página e tente de novo.',
  product_not_for_sale: 'Este produto não está à venda.',
  method_not_accepted: 'Esta forma de pagamento não é aceita para este produto.',
  malformed_json: 'O corpo da requisição não é um JSON válido.',
  unsupported_media_type: 'O corpo da requisição deve ser JSON (Content-Type: application/json).',
  internal_error: 'Erro interno. Tente novamente em instantes.',
};

/** By the English message, where one code (`not_found`, `forbidden`, …) carries several. */
const BY_MESSAGE: Record<string, string> = {
  'Checkout not found': 'Link de pagamento não encontrado.',
  'Payment not found': 'Pagamento não encontrado.',
  'Customer not found': 'Cadastro não encontrado.',
  'Subscription not found': 'Assinatura não encontrada.',
  'Payment method not found': 'Cartão não encontrado.',
  'Product not found': 'Produto não encontrado.',
  'Price not found': 'Plano não encontrado.',
  'Asset not found': 'Arquivo não encontrado.',
  'Booklet not found': 'Carnê não encontrado: o link não existe ou foi desativado pelo vendedor.',
  'Not found': 'Não encontrado.',
  'Insufficient permissions': 'Esta ação não está disponível para esta assinatura.',
  'This checkout session is already complete': 'Este pagamento já foi concluído.',
  'This checkout session has expired': 'Este link de pagamento expirou.',
  'This product is not for sale': 'Este produto não está à venda.',
  'This subscription price is no longer offered': 'Este plano de assinatura não é mais oferecido.',
};

/**
 * The answer of a buyer's route in Portuguese. A validation answer (a list with one sentence per
 * field, each starting with the field's name) is kept as it is: the pages' scripts show their own
 * Portuguese text for each field they name. Messages the domain already writes in Portuguese (the
 * pay link's, the customer area's, declines, the 429) are in neither table and pass unchanged.
 */
export function inPortuguese(body: ErrorBody): ErrorBody {
  if (Array.isArray(body.message)) return body;
  const message = BY_CODE[body.code] ?? BY_MESSAGE[body.message];
  return message ? { ...body, message } : body;
}
