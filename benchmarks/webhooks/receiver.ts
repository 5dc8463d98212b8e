/**
 * The benchmark's receiver, in its own process so it does not share a CPU with the sender.
 * Verifies every signature (as a real receiver would), answers 200, and records the latency from
 * the payload's `timestamp` (the event being recorded) to the moment its 2xx is written. Counts
 * a (path, event id) pair seen before as a duplicate (each endpoint has its own path).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@ephemail/core';

let secrets: string[] = [];
let latencies: number[] = [];
let invalid = 0;
let lastAt = 0;
let seen = new Set<string>();
let duplicates = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    if (!verifyWebhook(secrets, req.headers, raw).valid) invalid += 1;
    const payload = JSON.parse(raw.toString('utf8')) as { id: string; timestamp: string };
    const recordedAt = Date.parse(payload.timestamp);
    const key = `${req.url} ${payload.id}`;
    if (seen.has(key)) duplicates += 1;
    else seen.add(key);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"received":true}');
    lastAt = Date.now();
    latencies.push(lastAt - recordedAt);
  });
});

process.on('message', (message: { kind: string; secrets?: string[] }) => {
  if (message.kind === 'secrets') {
    secrets = message.secrets ?? [];
    process.send!({ kind: 'ok' });
  } else if (message.kind === 'take') {
    process.send!({ kind: 'taken', latencies, invalid, duplicates, lastAt });
    latencies = [];
    invalid = 0;
    duplicates = 0;
    seen = new Set();
  } else if (message.kind === 'count') {
    process.send!({ kind: 'count', count: latencies.length });
  } else if (message.kind === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});

server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send!({ kind: 'ready', port: (server.address() as AddressInfo).port }));

// The benchmark owns this process: if it goes away, so does the receiver.
process.on('disconnect', () => process.exit(0));
