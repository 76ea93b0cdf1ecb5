/** The buyer the checkout integration tests pay with: prefilled as a session sends it, and as typed. */
export const prefill = {
  'customer.name': 'Maria Souza',
  'customer.email': 'maria@example.com',
  'customer.document': '529.982.247-25',
  'customer.phone': '(11) 98765-4321',
};

export const buyer = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
  phone: '11987654321',
};

/** A sandbox test card by number (its number decides the outcome). */
export const card = (number: string) => ({
  number,
  holderName: 'MARIA SOUZA',
  expiryMonth: 12,
  expiryYear: 2034,
  cvv: '123',
});
