import * as z from 'zod';
import type { Assert, Equals } from '#shared/domain/type-assert';
import type { CustomerView } from './customer';
import type { createCustomer, getCustomer, setBillingEmailOverride, updateCustomer } from './customers';
import type { listCustomers } from './listing';

/**
 * This seller's view of a customer: POST /api/v1/customers (201 created, 200 when a
 * re-registration updated the profile), PATCH, and the billing e-mail override.
 */
export const customerResponse = z.lazy(() =>
  z
    .object({
      id: z.number().int(),
      uuid: z.string(),
      name: z.string(),
      email: z.string().describe('The e-mail last used with this seller'),
      phone: z.string().describe('10 or 11 digits'),
      document: z.string().describe('CPF or CNPJ, digits only'),
      personType: z.enum(['fisica', 'juridica']),
      zipCode: z.string().nullable(),
      street: z.string().nullable(),
      number: z.string().nullable(),
      complement: z.string().nullable(),
      neighborhood: z.string().nullable(),
      city: z.string().nullable(),
      state: z.string().nullable(),
      billingEmail: z.string().describe('The override, else the e-mail, else the global e-mail'),
      hasBillingEmailOverride: z.boolean(),
      testClockId: z
        .string()
        .optional()
        .describe('Sandbox only: the test clock the customer lives on; absent in real time'),
      createdAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
    })
    .meta({ id: 'Customer', description: 'A customer as this seller sees it' }),
);

/** GET /api/v1/customers: numbered pages, newest first. */
export const customerListResponse = z.lazy(() =>
  z
    .object({
      data: z.array(customerResponse),
      count: z.number().int().describe('Customers on this page'),
      totalCount: z.number().int().describe('Customers matching the search in all pages'),
      totalPages: z.number().int(),
    })
    .meta({ id: 'CustomerList', description: 'A page of customers' }),
);

type Out<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

type _View = Assert<Equals<z.output<typeof customerResponse>, CustomerView>>;
type _Create = Assert<Equals<z.output<typeof customerResponse>, Out<typeof createCustomer>['customer']>>;
type _Get = Assert<Equals<z.output<typeof customerResponse>, Out<typeof getCustomer>>>;
type _Update = Assert<Equals<z.output<typeof customerResponse>, Out<typeof updateCustomer>>>;
type _Override = Assert<Equals<z.output<typeof customerResponse>, Out<typeof setBillingEmailOverride>>>;
type _List = Assert<Equals<z.output<typeof customerListResponse>, Out<typeof listCustomers>>>;
