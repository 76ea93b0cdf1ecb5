import { expect } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import { addDays, saoPauloDate } from '#shared/dates';
import { cpfCheckDigits } from '#shared/domain/documents';
import { sellerFixtures } from './fixtures';
import type { client } from './runtime';

/**
 * The customer-area tests' scene, made over HTTP as sellers and customers make it: sellers with a
 * sandbox key, the same CPF registered by several of them, scheduled charges, and the magic link
 * read back from the local mailbox. `firstSeller` keeps each test file's sellers apart.
 */
export function customerAreaScene(
  current: () => { runtime: Runtime; api: ReturnType<typeof client> },
  firstSeller: number,
) {
  const fixtures = sellerFixtures(current, firstSeller);
  let nextDocument = 100_000_000 + Math.floor(Math.random() * 800_000_000);

  const newCpf = () => {
    const base = String(nextDocument++);
    return `${base}${cpfCheckDigits(base)}`;
  };

  const seller = () => fixtures.seller();

  const customer = (token: string, document: string, email: string, name = 'Paula Reis') =>
    fixtures.customer(token, { name, email, document }) as Promise<{ id: number; uuid: string }>;

  /** A one-time scheduled charge due in `inDays` days (São Paulo calendar). */
  async function charge(
    token: string,
    customerId: number,
    amount: number,
    description: string,
    options: { methods?: string[]; inDays?: number } = {},
  ) {
    const { runtime, api } = current();
    const res = await api.post(
      '/api/v1/scheduled-charges',
      {
        customerId,
        amount,
        dueDate: addDays(saoPauloDate(runtime.clock.now()), options.inDays ?? 10),
        methods: options.methods ?? ['pix', 'boleto'],
        type: 'one_time',
        description,
      },
      { token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string };
  }

  /** The link of the newest magic-link e-mail to `email` (sandbox or live), or undefined. */
  function linkIn(email: string, sandbox = true): string | undefined {
    // The mailbox lists newest first.
    const mail = current()
      .runtime.mailbox.all()
      .find(
        (m) => m.to === email && m.kind === 'magic_link' && m.subject.startsWith('[Sandbox]') === sandbox,
      );
    return /(https?:\/\/\S+\/minha-area#token=[A-Za-z0-9._-]+)/.exec(mail?.text ?? '')?.[1];
  }

  /** Requests a link by document and answers the token of the e-mail it sent. */
  async function linkFor(document: string, email: string, sandbox = true): Promise<string> {
    expect((await current().api.post('/api/public/minha-area/request', { document })).status).toBe(200);
    const token = /#token=([A-Za-z0-9._-]+)/.exec(linkIn(email, sandbox) ?? '')?.[1];
    expect(token).toBeDefined();
    return String(token);
  }

  return { newCpf, seller, customer, charge, linkIn, linkFor };
}
