import { DOCUMENT_TAKEN } from '#shared/domain/customers/customers';
import { ConflictError } from '#shared/errors';
import { defineExamples } from '#shared/http/examples';
import { customerRoutes } from './routes';

/** Calls of the customer routes for the API reference (read by the OpenAPI generator and the tests only). */

const mariaUuid = '5c5b366a-15a7-48ff-bba2-482f72a5e122';
const address = {
  zipCode: '01310-100',
  street: 'Avenida Paulista',
  number: '1578',
  complement: 'Apto 42',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
} as const;
const maria = {
  id: 1,
  uuid: mariaUuid,
  name: 'Maria Souza',
  email: 'maria@example.com',
  phone: '11987654321',
  document: '52998224725',
  personType: 'fisica',
  ...address,
  zipCode: '01310100',
  billingEmail: 'maria@example.com',
  hasBillingEmailOverride: false,
  createdAt: '2026-11-28T17:09:20.422Z',
  updatedAt: '2026-11-28T17:09:28.426Z',
} as const;
const updated = {
  ...maria,
  phone: '11912345678',
  complement: 'Apto 43',
  updatedAt: '2026-11-28T17:09:28.740Z',
};

export const examples = defineExamples(customerRoutes, {
  createCustomer: [
    {
      name: 'new',
      summary: 'A customer new to the seller',
      body: {
        name: 'João Pereira',
        email: 'joao@example.com',
        document: '714.602.385-08',
        phone: '(21) 99876-5432',
        personType: 'fisica',
      },
      responses: {
        201: {
          id: 2,
          uuid: '013a3283-c544-4269-84fd-b6013205486e',
          name: 'João Pereira',
          email: 'joao@example.com',
          phone: '21998765432',
          document: '71460238508',
          personType: 'fisica',
          zipCode: null,
          street: null,
          number: null,
          complement: null,
          neighborhood: null,
          city: null,
          state: null,
          billingEmail: 'joao@example.com',
          hasBillingEmailOverride: false,
          createdAt: '2026-11-28T17:09:28.471Z',
          updatedAt: '2026-11-28T17:09:28.471Z',
        },
      },
    },
    {
      name: 'known-document',
      summary: 'A document the seller has (Maria bought before): her profile is updated, same uuid, 201',
      body: {
        name: 'Maria Souza',
        email: 'maria@example.com',
        document: '529.982.247-25',
        phone: '11987654321',
        personType: 'fisica',
        ...address,
      },
      responses: { 201: maria },
    },
  ],
  listCustomers: {
    query: { page: 1, limit: 20, search: 'maria' },
    responses: { 200: { data: [maria], count: 1, totalCount: 1, totalPages: 1 } },
  },
  getCustomer: { path: { uuid: mariaUuid }, responses: { 200: maria } },
  updateCustomer: [
    {
      name: 'contact',
      summary: 'A new phone and a new complement; the rest stays',
      path: { uuid: mariaUuid },
      body: { phone: '11912345678', complement: 'Apto 43' },
      responses: { 200: updated },
    },
    {
      name: 'correct-document',
      summary: 'A mistyped CPF corrected: the same customer (id, uuid, history) under the right document',
      path: { uuid: mariaUuid },
      body: { document: '390.533.447-05' },
      responses: {
        200: { ...updated, document: '39053344705', updatedAt: '2026-11-28T17:09:29.102Z' },
      },
    },
    {
      name: 'document-taken',
      summary: 'The seller already has a customer with that document: 409',
      path: { uuid: mariaUuid },
      body: { document: '390.533.447-05' },
      errors: { 409: new ConflictError(DOCUMENT_TAKEN, 'customer_exists') },
    },
  ],
  setBillingEmailOverride: {
    path: { uuid: mariaUuid },
    body: { billingEmailOverride: 'financeiro@example.com' },
    responses: {
      200: {
        ...updated,
        billingEmail: 'financeiro@example.com',
        hasBillingEmailOverride: true,
        updatedAt: '2026-11-28T17:09:28.748Z',
      },
    },
  },
  listPaymentMethods: {
    path: { uuid: mariaUuid },
    responses: {
      200: {
        data: [
          {
            id: 1,
            uuid: '7c3ede88-3a1d-4bcd-bea3-58f996f4c7af',
            type: 'card',
            customerId: 1,
            customerUuid: mariaUuid,
            brand: 'visa',
            last4: '1111',
            expiryMonth: 12,
            expiryYear: 2031,
            status: 'active',
            expiresAt: '2032-01-01T03:00:00.000Z',
            createdAt: '2026-11-28T17:05:39.420Z',
            updatedAt: '2026-11-28T17:05:39.420Z',
          },
        ],
      },
    },
  },
  deletePaymentMethod: {
    path: { uuid: mariaUuid, id: '3' },
    responses: { 200: { id: 3, deleted: true } },
  },
});
