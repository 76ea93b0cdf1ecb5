import { BadRequestError, createPaymentService } from '@payment-service/node';

// sk_test_… acts in the sandbox; baseUrl is the local runtime's (dev-credentials.json) or your deployment's
const payments = createPaymentService(process.env.PAYMENT_SERVICE_KEY ?? '', {
  baseUrl: process.env.PAYMENT_SERVICE_URL ?? 'http://127.0.0.1:3000',
});

const product = await payments.products.create({
  name: 'Curso de violão',
  image: 'https://example.com/violao.png',
  value: 49.9,
});
// a POST carries an X-Idempotency-Key made for the call, the same on its retries (5xx, 429, lost answers)
const sale = await payments.transactions.create({
  productId: product.uuid,
  paymentMethod: 'pix',
  customer: {
    name: 'Maria Souza',
    email: 'maria@example.com',
    document: '529.982.247-25',
    phone: '11987654321',
  },
});
console.log(sale.status, sale.pix?.qrCode); // pendingPix and the BR Code to show the buyer
await payments.testHelpers.payTransaction(sale.id); // the sandbox's buyer pays: status payedPix

// every sale, page after page (cursor or numbered pages, whichever the list has)
for await (const t of payments.transactions.list({ limit: 50 }).autoPaginate()) console.log(t.id, t.status);

try {
  await payments.products.create({ name: 'Sem preço', image: 'https://example.com/x.png', value: -1 });
} catch (error) {
  // BadRequestError 400, AuthenticationError 401, NotFoundError 404, ConflictError 409, RateLimitError 429…
  if (error instanceof BadRequestError) console.log(error.code, error.fieldErrors); // validation_failed [{field: 'value', …}]
}
