import { createHash } from 'node:crypto';
import type { RateWindow } from '#shared/domain/auth/rate-limit';
import type { Deps } from '#shared/domain/deps';
import { normalizeDocument } from '#shared/domain/documents';
import type { Environment } from '#shared/domain/tenant';
import { TooManyRequestsError } from '#shared/errors';
import { issueMagicLink, MAGIC_LINK_TTL_SECONDS } from './magic-link';
import { registeredProfiles } from './registered';
import type { MagicLinkRequest } from './schemas';

/** Per client IP: 10 requests a minute. Per target (an e-mail or a document): 5 every 10 minutes. */
export const IP_LIMIT = { max: 10, windowSeconds: 60 } as const;
export const TARGET_LIMIT = { max: 5, windowSeconds: 600 } as const;
/**
 * Every answer past the rate limits takes at least this long, match or not: a match also issues a
 * link and sends an e-mail (SES answers in well under this), so the time does not tell which.
 */
export const REQUEST_FLOOR_MS = 800;
const ENVIRONMENTS: Environment[] = ['live', 'test'];
/**
 * Sandbox customers are fake: their link is kept in the sandbox mailbox, never e-mailed (seller 0
 * is no seller, so no seller's test helper lists it; locally the mail folder shows every message).
 */
const SANDBOX_MAIL_TENANT = { sellerId: 0, environment: 'test' } as const;

export type RequestMagicLinkDeps = Pick<
  Deps,
  'customers' | 'directory' | 'rateLimits' | 'magicLinks' | 'mailer' | 'clock' | 'pacer' | 'publicBaseUrl'
>;

function windowOf(now: Date, seconds: number): RateWindow {
  const index = Math.floor(now.getTime() / 1000 / seconds);
  return {
    index,
    startsAt: new Date(index * seconds * 1000),
    resetsAt: new Date((index + 1) * seconds * 1000),
  };
}

async function limit(
  deps: RequestMagicLinkDeps,
  principal: string,
  rule: { max: number; windowSeconds: number },
  now: Date,
) {
  const window = windowOf(now, rule.windowSeconds);
  const count = await deps.rateLimits.hit(principal, now, window);
  if (count > rule.max)
    throw new TooManyRequestsError(
      Math.max(1, Math.ceil((window.resetsAt.getTime() - now.getTime()) / 1000)),
    );
}

/**
 * `m***@example.com`: enough for the customer to recognise the address, not to learn it. Only the
 * first letter (a whole code point) of the local part and the domain after the last `@` show; the
 * mask is the same length for any local part, and a text without `@` shows no made-up domain.
 */
export function maskEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const first = [...(at === -1 ? address : address.slice(0, at))][0] ?? '';
  return at === -1 ? `${first}***` : `${first}***@${address.slice(at + 1)}`;
}

/** Where a link goes: a customer of one environment, at one address a seller registered. */
interface Recipient {
  environment: Environment;
  document: string;
  email: string;
  name: string;
}

/**
 * The addresses to send links to (docs/decisions.md, "Customer identity"): the seller-registered
 * addresses of the document, or the one asked for when a seller registered it for some customer.
 * What an anonymous buyer typed on a public page is never among them.
 */
async function recipients(deps: RequestMagicLinkDeps, input: MagicLinkRequest): Promise<Recipient[]> {
  const asked = input.email?.toLowerCase();
  const found = new Map<string, Recipient>();
  for (const environment of ENVIRONMENTS) {
    const documents = input.document
      ? [normalizeDocument(input.document)]
      : await deps.directory.documentsByEmail(environment, asked ?? '');
    for (const document of documents) {
      for (const { profile } of await registeredProfiles(deps, environment, document, asked)) {
        const email = profile.email.toLowerCase();
        const key = `${environment}#${document}#${email}`;
        if (!found.has(key)) found.set(key, { environment, document, email, name: profile.name });
      }
    }
  }
  return [...found.values()];
}

/**
 * POST /api/public/minha-area/request. The answer has the same shape whether a customer matched
 * or not; each match (a document may be a customer in both environments, at addresses different
 * sellers registered) gets its own link, good only in that environment and for that address. Counters are keyed by a hash: no e-mail or CPF sits in a rate item.
 */
export async function requestMagicLink(
  deps: RequestMagicLinkDeps,
  input: MagicLinkRequest,
  sourceIp: string,
): Promise<{ maskedEmail: string | null }> {
  const now = deps.clock.now();
  await limit(deps, `minha-area-ip:${sourceIp}`, IP_LIMIT, now);
  const target = input.document
    ? `doc:${normalizeDocument(input.document)}`
    : `email:${input.email?.toLowerCase()}`;
  await limit(deps, `minha-area:${createHash('sha256').update(target).digest('hex')}`, TARGET_LIMIT, now);
  const hold = deps.pacer.begin(REQUEST_FLOOR_MS);
  const found = await recipients(deps, input);
  for (const customer of found) {
    const token = await issueMagicLink(deps, customer, now);
    const link = `${deps.publicBaseUrl}/minha-area#token=${token}`;
    const sandbox = customer.environment === 'test';
    await deps.mailer.send({
      to: customer.email,
      subject: sandbox ? '[Sandbox] Seu link de acesso à Minha Área' : 'Seu link de acesso à Minha Área',
      text:
        `Olá, ${customer.name}.\n\nPara ver suas cobranças e ajustar o e-mail de cobrança, abra o link abaixo ` +
        `(válido por ${MAGIC_LINK_TTL_SECONDS / 60} minutos):\n\n${link}\n\n` +
        'Se você não pediu este link, ignore esta mensagem.',
      kind: 'magic_link',
      ...(sandbox ? { tenant: SANDBOX_MAIL_TENANT } : {}),
    });
  }
  await hold();
  return { maskedEmail: found[0] ? maskEmail(found[0].email) : null };
}
