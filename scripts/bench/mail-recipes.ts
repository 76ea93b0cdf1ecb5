import { toStoredMail } from '#shared/domain/mail/delivery';
import type { MailboxReader } from '#shared/domain/ports';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { sandbox, testApiKey } from './fixtures';
import type { BenchContext, Recipe } from './recipes';

/**
 * The mail test helpers of functions/test-helpers, through an sk_test_ key.
 *
 * The local runtime keeps every message in memory (its LocalMailbox), where AWS keeps a sandbox
 * tenant's mail in the table (repos.sandboxMailbox: a Query per list, a GetItem per message). So
 * that the bench counts what AWS does, the bench's own tenants read from the table mailbox: the
 * runtime's mailbox object (the one the handlers hold) answers them from repos.sandboxMailbox, and
 * every other tenant as before. Messages are seeded there straight through the repository.
 */
const tableTenants: Tenant[] = [];
let routed = false;

function readFromTable(ctx: BenchContext, tenant: Tenant) {
  tableTenants.push(tenant);
  if (routed) return;
  routed = true;
  const local = ctx.runtime.deps.mailbox;
  const table = ctx.runtime.deps.repos.sandboxMailbox;
  const inTable = (t: Tenant) => tableTenants.some((b) => sameTenant(b, t));
  const list = local.list.bind(local);
  const get = local.get.bind(local);
  const patched: MailboxReader = {
    list: (t, query) => (inTable(t) ? table.list(t, query) : list(t, query)),
    get: (t, id) => (inTable(t) ? table.get(t, id) : get(t, id)),
  };
  Object.assign(local, patched);
}

/** A sandbox seller with `count` receipts kept in the table mailbox; returns its key and the ids. */
async function sellerWithMail(ctx: BenchContext, count: number) {
  const { sellerId } = await ctx.newSeller();
  const key = await testApiKey(ctx, sellerId);
  const tenant = sandbox(sellerId);
  readFromTable(ctx, tenant);
  const { deps } = ctx.runtime;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const mail = toStoredMail(deps, {
      tenant,
      to: `buyer${i % 5}@example.com`,
      subject: `Recibo do seu pagamento ${i}`,
      text: 'Pagamento confirmado.',
      html: '<p>Pagamento confirmado.</p>',
      kind: 'receipt',
    });
    await deps.repos.sandboxMailbox.keep(mail);
    ids.push(mail.id);
  }
  return { key, ids };
}

export const mailRecipes: Record<string, Recipe> = {
  'GET /api/test-helpers/mail': {
    prepare: async (ctx) => {
      // More messages than one page (default limit 20).
      const { key } = await sellerWithMail(ctx, 25);
      return () => ({ method: 'GET', path: '/api/test-helpers/mail', token: key, expect: 200 });
    },
  },
  'GET /api/test-helpers/mail/{id}': {
    prepare: async (ctx) => {
      const { key, ids } = await sellerWithMail(ctx, 1);
      return () => ({ method: 'GET', path: `/api/test-helpers/mail/${ids[0]}`, token: key, expect: 200 });
    },
  },
};
