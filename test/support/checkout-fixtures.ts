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

/**
 * The n-th of a series of Luhn-valid numbers no sandbox script knows: each is declined
 * `card_declined`, and each is another card to the card-testing guard.
 */
export function decliningCard(n: number): string {
  const body = `5105${String(n).padStart(11, '0')}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}
