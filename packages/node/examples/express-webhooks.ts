import { webhookMiddleware } from '@payment-service/node/express';
import express from 'express';

const app = express();
// before app.use(express.json()): the signature covers the raw body, which the middleware reads itself
app.post('/webhooks', webhookMiddleware({ secret: process.env.WEBHOOK_SECRET ?? '' }), (req, res) => {
  const event = req.webhookEvent!; // verified: {id, event, timestamp, data}; de-duplicate by id
  if (event.event === 'transaction.payment.succeeded') console.log('paid', event.data);
  res.sendStatus(200);
});
app.use(express.json()); // the rest of the app
app.listen(Number(process.env.PORT ?? 4000));
// a refused delivery is answered 400 {code, message}: missing_signature_header,
// body_parsed_before_verification, wrong_secret, timestamp_outside_tolerance or signature_mismatch
