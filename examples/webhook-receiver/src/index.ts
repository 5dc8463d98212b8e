import { createServer } from 'node:http';
import { createWebhookReceiver } from './receiver.js';

export { createWebhookReceiver, type ReceiverOptions, type WebhookEvent } from './receiver.js';
export { SeenIds } from './seen-ids.js';

/**
 * Run as a program: `WEBHOOK_SECRET=whsec_... PORT=8787 npm start -w @ephemail/example-webhook-receiver`.
 * During a secret rotation set `WEBHOOK_SECRET_PREVIOUS` too. Listens on 127.0.0.1 only; put it
 * behind your HTTPS reverse proxy to receive from a deployed service.
 */
const main = () => {
  const secret = process.env.WEBHOOK_SECRET;
  if (secret === undefined || secret === '') throw new Error('set WEBHOOK_SECRET to the secret shown when the endpoint was created');
  const previous = process.env.WEBHOOK_SECRET_PREVIOUS;
  const receiver = createWebhookReceiver({
    secrets: previous ? [secret, previous] : secret,
    onEvent: (event) => console.log(`${event.timestamp} ${event.type} ${event.id} ${event.data.identity_id}`),
  });
  const port = Number(process.env.PORT ?? 8787);
  createServer(receiver).listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
};

if (import.meta.url === `file://${process.argv[1]}`) main();
