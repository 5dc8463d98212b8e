import '../../../core/test/webhooks/tripwire.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedAddress, Resolver } from '../src/index.js';

/** A resolver answering from a table, recording what it was asked; unknown names fail like NXDOMAIN. */
export const tableResolver = (table: Readonly<Record<string, readonly string[]>>) => {
  const asked: string[] = [];
  const resolver: Resolver = async (hostname) => {
    asked.push(hostname);
    const found = table[hostname];
    if (found === undefined) throw Object.assign(new Error(`no such name ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolver, asked };
};

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly servername?: string;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

/** A server on 127.0.0.1 (plain, or TLS with the given certificate), recording requests. */
export const startServer = async (handler: Handler, tlsOptions?: { key: string; cert: string }) => {
  const received: Received[] = [];
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const servername = (req.socket as { servername?: string }).servername;
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, servername });
      handler(req, res, body);
    });
  };
  const server = tlsOptions ? https.createServer(tlsOptions, listener) : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { port, received, close, server };
};

/**
 * A self-signed certificate for `hooks.example.com` and 127.0.0.1, made with the openssl command
 * line; `undefined` when openssl is not installed (the TLS tests then skip with a reason).
 */
export const selfSignedCertificate = (): { key: string; cert: string } | undefined => {
  const dir = mkdtempSync(join(tmpdir(), 'outbound-tls-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=hooks.example.com',
      '-addext', 'subjectAltName=DNS:hooks.example.com,IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
