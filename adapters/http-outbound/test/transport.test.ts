import '../../../core/test/webhooks/tripwire.js';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import test from 'ava';
import { createGuardedClient, guardedPost } from '../src/index.js';
import { selfSignedCertificate, startServer, tableResolver } from './support.js';

const json = { 'content-type': 'application/json' };
const certificate = selfSignedCertificate();

/** A port nothing listens on: bound, then closed. */
const closedPort = async (): Promise<number> => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

test('transport: 2xx, 4xx and 5xx answers are statuses; the body arrives as sent', async (t) => {
  const server = await startServer((req, res) => {
    res.statusCode = Number(req.url!.slice(1));
    res.end('ok');
  });
  const client = createGuardedClient({ allowHttpLoopback: true });
  try {
    for (const status of [200, 202, 204, 400, 404, 410, 500, 503]) {
      t.deepEqual(await client.post(`http://127.0.0.1:${server.port}/${status}`, json, '{"id":"evt_1"}', { timeoutMs: 2000 }), { status });
    }
    t.is(server.received[0]!.body, '{"id":"evt_1"}');
    t.is(server.received[0]!.method, 'POST');
    t.is(server.received[0]!.headers['content-length'], '14');
  } finally {
    client.close();
    await server.close();
  }
});

test('transport: a 3xx is answered as it is; the redirect is not followed', async (t) => {
  const server = await startServer((req, res) => {
    if (req.url === '/start') {
      res.writeHead(302, { location: `http://127.0.0.1:${server.port}/target` });
      res.end();
    } else res.end('followed');
  });
  try {
    const outcome = await guardedPost(`http://127.0.0.1:${server.port}/start`, json, '{}', { allowHttpLoopback: true });
    t.like(outcome, { status: 302 });
    t.false(server.received.some((r) => r.url === '/target'), 'the target was never requested');
  } finally {
    await server.close();
  }
});

test('transport: a receiver that never answers is a timeout within the deadline', async (t) => {
  const server = await startServer(() => {});
  const client = createGuardedClient({ allowHttpLoopback: true });
  try {
    const started = process.hrtime.bigint();
    t.deepEqual(await client.post(`http://127.0.0.1:${server.port}/`, json, '{}', { timeoutMs: 300 }), { error: 'timeout after 300 ms' });
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    // The receiver never answers: any end at all is the deadline's; the bound only catches a hang.
    t.true(elapsedMs < 20_000, `gave up after ${elapsedMs} ms`);
  } finally {
    client.close();
    await server.close();
  }
});

test('transport: a body that drips past the deadline is a timeout too (the deadline covers the whole attempt)', async (t) => {
  const server = await startServer((_req, res) => {
    res.writeHead(200);
    const timer = setInterval(() => res.write('.'), 50);
    res.on('close', () => clearInterval(timer));
  });
  try {
    t.like(await guardedPost(`http://127.0.0.1:${server.port}/`, json, '{}', { allowHttpLoopback: true, timeoutMs: 400 }), { kind: 'timeout' });
  } finally {
    await server.close();
  }
});

test('transport: connection refused is an error, not a status', async (t) => {
  const port = await closedPort();
  t.deepEqual(await createGuardedClient({ allowHttpLoopback: true }).post(`http://127.0.0.1:${port}/`, json, '{}', { timeoutMs: 2000 }), { error: 'connection refused' });
});

test('transport: the response body is capped; the status still counts', async (t) => {
  const server = await startServer((_req, res) => res.end(Buffer.alloc(1_000_000, 0x61)));
  try {
    const outcome = await guardedPost(`http://127.0.0.1:${server.port}/`, json, '{}', { allowHttpLoopback: true, maxResponseBytes: 1024 });
    t.like(outcome, { status: 200, truncated: true });
    if ('body' in outcome) t.is(outcome.body.length, 1024);
  } finally {
    await server.close();
  }
});

test('transport: plain http to loopback needs development mode (refused before connecting otherwise)', async (t) => {
  const server = await startServer((_req, res) => res.end());
  try {
    t.like(await guardedPost(`http://127.0.0.1:${server.port}/`, json, '{}'), { kind: 'refused' });
    t.is(server.received.length, 0);
  } finally {
    await server.close();
  }
});

/** TLS cases need a certificate from openssl; without it they show as skipped. */
const tlsTest = certificate ? test : test.skip;

tlsTest('transport: a name is resolved once per attempt and the connection pinned to the checked address (TLS, needs openssl)', async (t) => {
  const server = await startServer((_req, res) => res.end('hi'), certificate!);
  let calls = 0;
  // Answers loopback once, then an address the guard would refuse: a socket that looked the name
  // up again would be refused (and the tripwire would fire); the pinned one never asks.
  const resolver = async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 as const }] : [{ address: '10.0.0.1', family: 4 as const }]);
  const client = createGuardedClient({ allowHttpLoopback: true, resolver, ca: certificate!.cert, keepAlive: false });
  try {
    const outcome = await client.request(`https://hooks.example.com:${server.port}/pinned?x=1`, { method: 'POST', headers: json, body: '{}' });
    t.like(outcome, { status: 200, address: '127.0.0.1' });
    t.is(calls, 1);
    const [received] = server.received;
    t.is(received!.headers.host, `hooks.example.com:${server.port}`, 'Host stays the URL’s');
    t.is(received!.servername, 'hooks.example.com', 'SNI stays the URL’s');
    t.is(received!.url, '/pinned?x=1');
    t.like(await client.request(`https://hooks.example.com:${server.port}/again`), { kind: 'refused' }, 'the next attempt checks again');
  } finally {
    client.close();
    await server.close();
  }
});

tlsTest('transport: https with an untrusted certificate is a TLS error; trusted through `ca` it is delivered (needs openssl)', async (t) => {
  const server = await startServer((_req, res) => res.end(), certificate!);
  const { resolver } = tableResolver({ 'hooks.example.com': ['127.0.0.1'] });
  try {
    const url = `https://hooks.example.com:${server.port}/`;
    t.like(await guardedPost(url, json, '{}', { allowHttpLoopback: true, resolver }), { kind: 'tls' });
    t.like(await guardedPost(url, json, '{}', { allowHttpLoopback: true, resolver, ca: certificate!.cert }), { status: 200 });
  } finally {
    await server.close();
  }
});

test('transport: keep-alive reuses one connection per checked address', async (t) => {
  const server = await startServer((_req, res) => res.end('ok'));
  const sockets = new Set<unknown>();
  server.server.on('connection', (socket) => sockets.add(socket));
  const client = createGuardedClient({ allowHttpLoopback: true });
  try {
    for (let i = 0; i < 5; i += 1) t.deepEqual(await client.post(`http://127.0.0.1:${server.port}/`, json, '{}', { timeoutMs: 2000 }), { status: 200 });
    t.is(sockets.size, 1);
  } finally {
    client.close();
    await server.close();
  }
});

test('transport: a client makes the static URL checks once, but resolves the name and checks its addresses at every attempt', async (t) => {
  const server = await startServer((_req, res) => res.end());
  const table: Record<string, string[]> = { 'hooks.localhost': ['127.0.0.1'] };
  const { resolver, asked } = tableResolver(table);
  const client = createGuardedClient({ allowHttpLoopback: true, resolver });
  const url = `http://hooks.localhost:${server.port}/h`;
  try {
    t.deepEqual(await client.post(url, json, '{}', { timeoutMs: 2000 }), { status: 200 });
    t.deepEqual(await client.post(url, json, '{}', { timeoutMs: 2000 }), { status: 200 });
    table['hooks.localhost'] = ['127.0.0.1', '10.0.0.1'];
    t.like(await client.post(url, json, '{}', { timeoutMs: 2000 }), { error: 'refused: hooks.localhost resolves to a refused address: 10.0.0.1 is in a special-purpose range (private)' });
    t.deepEqual(asked, ['hooks.localhost', 'hooks.localhost', 'hooks.localhost'], 'one resolution per attempt');
    t.is(server.received.length, 2);
    t.like(await client.request('http://user:pw@hooks.localhost/'), { kind: 'refused' }, 'a URL that fails the static checks is refused every time');
    t.like(await client.request('http://user:pw@hooks.localhost/'), { kind: 'refused' });
  } finally {
    client.close();
    await server.close();
  }
});

test('transport: connections opened by a burst of posts to one origin are all kept for the next burst', async (t) => {
  const server = await startServer((_req, res) => res.end());
  let connections = 0;
  server.server.on('connection', () => (connections += 1));
  const client = createGuardedClient({ allowHttpLoopback: true, maxSocketsPerPool: 24 });
  const burst = () => Promise.all(Array.from({ length: 24 }, () => client.post(`http://127.0.0.1:${server.port}/h`, json, '{}', { timeoutMs: 2000 })));
  try {
    await burst();
    const opened = connections;
    t.true(opened > 16, `the burst opened more connections than the old idle limit (${opened})`);
    await burst();
    await burst();
    t.is(connections, opened, 'no connection was closed and opened again');
  } finally {
    client.close();
    await server.close();
  }
});
