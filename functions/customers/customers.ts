import {
  createCustomer,
  setBillingEmailOverride as setOverride,
  updateCustomer,
} from '#shared/domain/customers/customers';
import { listCustomers } from '#shared/domain/customers/listing';
import {
  billingEmailOverrideSchema,
  createCustomerSchema,
  listCustomersSchema,
  updateCustomerSchema,
} from '#shared/domain/customers/schemas';
import { tenantOf } from '#shared/http/tenant';
import { type HttpRequest, ok } from '#shared/http/types';
import { parseInput } from '#shared/validation';

const deps = (req: HttpRequest) => ({
  customers: req.deps.repos.customers,
  clock: req.deps.clock,
  ids: req.deps.ids,
});

/** 201 when this seller's profile was created, 200 when a re-registration updated it. */
export async function create(req: HttpRequest) {
  const out = await createCustomer(deps(req), tenantOf(req), parseInput(createCustomerSchema, req.body));
  return ok(out.customer, out.created ? 201 : 200);
}

export const list = async (req: HttpRequest) =>
  ok(await listCustomers(deps(req), tenantOf(req), parseInput(listCustomersSchema, req.query)));

export const update = async (req: HttpRequest) =>
  ok(
    await updateCustomer(
      deps(req),
      tenantOf(req),
      req.pathParams.uuid,
      parseInput(updateCustomerSchema, req.body),
    ),
  );

export async function setBillingEmailOverride(req: HttpRequest) {
  const { billingEmailOverride } = parseInput(billingEmailOverrideSchema, req.body);
  return ok(await setOverride(deps(req), tenantOf(req), req.pathParams.uuid, billingEmailOverride));
}
