/**
 * The baseline: a bare Express 5 app answering one fixed JSON body, for GET and for a POST read
 * through the JSON body parser. The body comes from the parent (the host's real identity
 * answer), so both sides serialise and send the same bytes. It prints `{"port":N}` once listening.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';

const body = process.env.BARE_BODY ?? '{"status":"ok"}';
const fixed = JSON.parse(body) as unknown;

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/item', (_req, res) => void res.json(fixed));
app.post('/item', express.json({ limit: '1mb' }), (_req, res) => void res.status(201).json(fixed));

const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
