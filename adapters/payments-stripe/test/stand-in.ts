import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';

/** One request as the stand-in received it: the form body flattened to Stripe's bracket keys. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly form: Readonly<Record<string, string>>;
  readonly contentType: string | undefined;
}

/** What the stand-in answers a request with: a status and a body, sent as JSON unless it is a string. */
export type Responder = (request: RecordedRequest) => { readonly status: number; readonly body: unknown };

export interface StandIn {
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** A client of the host's kind, pointed at the stand-in; no retries, so each call is one request. */
  readonly stripe: Stripe;
  close(): Promise<void>;
}

const readForm = async (request: IncomingMessage): Promise<Record<string, string>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
};

/** Stripe's answers to the three calls the adapter makes, shaped as far as the adapter reads them. */
export const stripeLike: Responder = ({ path, form }) => {
  const id = randomUUID().replaceAll('-', '');
  if (path === '/v1/customers') return { status: 200, body: { id: `cus_${id}`, object: 'customer', metadata: {} } };
  if (path === '/v1/checkout/sessions') {
    return { status: 200, body: { id: `cs_test_${id}`, object: 'checkout.session', mode: form.mode, url: `https://checkout.stripe.test/c/pay/cs_test_${id}` } };
  }
  if (path === '/v1/billing_portal/sessions') {
    return { status: 200, body: { id: `bps_${id}`, object: 'billing_portal.session', url: `https://billing.stripe.test/p/session/${id}` } };
  }
  return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } } };
};

/** An error the way Stripe's API writes it. */
export const stripeError = (status: number, type: string, message: string) => (): ReturnType<Responder> => ({
  status,
  body: { error: { type, message } },
});

export const clientFor = (port: number): Stripe =>
  new Stripe('sk_test_stand_in', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false, timeout: 5_000 });

/** An HTTP stand-in for api.stripe.com on 127.0.0.1 and a free port. */
export const startStandIn = async (respond: Responder = stripeLike): Promise<StandIn> => {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    void readForm(request).then((form) => {
      const recorded: RecordedRequest = { method: request.method ?? '', path: (request.url ?? '').split('?')[0] ?? '', form, contentType: request.headers['content-type'] };
      requests.push(recorded);
      const { status, body } = respond(recorded);
      const text = typeof body === 'string';
      response
        .writeHead(status, { 'content-type': text ? 'text/html' : 'application/json', 'request-id': `req_${randomUUID()}` })
        .end(text ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    stripe: clientFor(port),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};

/** A port on 127.0.0.1 that was just free and is now closed: connecting to it is refused. */
export const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
};
