import { createCustomer } from '#shared/domain/customers/customers';
import { createCustomerSchema } from '#shared/domain/customers/schemas';
import { cpfCheckDigits } from '#shared/domain/documents';
import type { Tenant } from '#shared/domain/tenant';
import { live } from './fixtures';
import type { BenchContext, Recipe } from './recipes';

const path = '/api/v1/customers';

/** A valid CPF of its own for request i of a seller, so creations never collide across recipes. */
function cpfOf(sellerId: number, i: number): string {
  const base = `1${String(sellerId % 1000).padStart(3, '0')}${String(i).padStart(5, '0')}`;
  return `${base}${cpfCheckDigits(base)}`;
}

const customerBody = (document: string, i: number) => ({
  name: `Bench Customer ${i}`,
  email: `customer${i}@example.com`,
  document,
  phone: '11987654321',
  personType: 'fisica',
  zipCode: '01310100',
  city: 'São Paulo',
  state: 'SP',
});

/** Customers registered straight through the domain (not measured); returns their uuids. */
async function createCustomers(ctx: BenchContext, tenant: Tenant, documents: string[]): Promise<string[]> {
  const { deps } = ctx.runtime;
  const customerDeps = { customers: deps.repos.customers, clock: deps.clock, ids: deps.ids };
  const uuids: string[] = [];
  for (const [i, document] of documents.entries()) {
    const input = createCustomerSchema.parse(customerBody(document, i));
    uuids.push((await createCustomer(customerDeps, tenant, input)).customer.uuid);
  }
  return uuids;
}

/** functions/customers, through the dashboard JWT (live tenant). */
export const customerRecipes: Record<string, Recipe> = {
  [`POST ${path}`]: {
    prepare: async (ctx, count) => {
      // Request i by i % 3: 0 a brand-new document; 1 a document another seller already has (a new
      // profile of an existing global customer); 2 a document this seller registered, sent again
      // with a changed name and city (a re-registration: 200). Each must cost BatchGetItem + one write.
      const { sellerId, token } = await ctx.newSeller();
      const other = await ctx.newSeller();
      const documents = Array.from({ length: count }, (_, i) => cpfOf(sellerId, i));
      await createCustomers(
        ctx,
        live(other.sellerId),
        documents.filter((_, i) => i % 3 === 1),
      );
      await createCustomers(
        ctx,
        live(sellerId),
        documents.filter((_, i) => i % 3 === 2),
      );
      return (i) =>
        i % 3 === 2
          ? {
              method: 'POST',
              path,
              token,
              // The e-mail it was registered with (createCustomers numbers its own list): a new
              // e-mail moves the e-mail pointer, a second write (docs/decisions.md).
              body: {
                ...customerBody(documents[i], (i - 2) / 3),
                name: `Renamed Customer ${i}`,
                city: 'Santos',
              },
              expect: 200,
            }
          : { method: 'POST', path, token, body: customerBody(documents[i], i), expect: 201 };
    },
  },
  [`GET ${path}`]: {
    prepare: async (ctx) => {
      // More customers than one page (default limit 20).
      const { sellerId, token } = await ctx.newSeller();
      await createCustomers(
        ctx,
        live(sellerId),
        Array.from({ length: 25 }, (_, i) => cpfOf(sellerId, i)),
      );
      return () => ({ method: 'GET', path, token, expect: 200 });
    },
  },
  [`PATCH ${path}/{uuid}`]: {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [uuid] = await createCustomers(ctx, live(sellerId), [cpfOf(sellerId, 0)]);
      return (i) => ({
        method: 'PATCH',
        path: `${path}/${uuid}`,
        token,
        body: { name: `Renamed ${i}` },
        expect: 200,
      });
    },
  },
  [`PATCH ${path}/{uuid}/billing-email-override`]: {
    prepare: async (ctx) => {
      const { sellerId, token } = await ctx.newSeller();
      const [uuid] = await createCustomers(ctx, live(sellerId), [cpfOf(sellerId, 0)]);
      return (i) => ({
        method: 'PATCH',
        path: `${path}/${uuid}/billing-email-override`,
        token,
        body: { billingEmailOverride: i % 2 ? null : `billing${i}@example.com` },
        expect: 200,
      });
    },
  },
};
