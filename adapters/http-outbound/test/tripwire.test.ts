import '../../../core/test/webhooks/tripwire.js';
import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import test from 'ava';
import { violations } from '../../../core/test/webhooks/tripwire.js';

/** The tripwire itself: what a broken guard would do never leaves the machine. */
test('tripwire: direct connections to non-loopback addresses throw before any packet', (t) => {
  t.throws(() => net.connect(443, '10.255.0.1'), { message: /TRIPWIRE/ });
  t.throws(() => net.createConnection({ host: '93.184.216.34', port: 80 }), { message: /TRIPWIRE/ });
  t.throws(() => tls.connect({ host: '8.8.8.8', port: 443 }), { message: /TRIPWIRE/ });
  t.throws(() => new net.Socket().connect(80, '169.254.169.254'), { message: /TRIPWIRE/ });
  t.throws(() => new net.Socket().connect({ host: '2606:4700::1111', port: 443 }), { message: /TRIPWIRE/ });
  t.true(violations.length >= 5);
});

test('tripwire: http clients and fetch fail too, and system DNS of outside names is refused', async (t) => {
  t.throws(() => http.get({ host: '192.168.1.1', port: 80, agent: false }), { message: /TRIPWIRE/ });
  const failed = await t.throwsAsync(() => fetch('http://172.16.5.4:8080/'));
  t.regex(String((failed as Error & { cause?: unknown }).cause), /TRIPWIRE/);
  t.throws(() => dns.lookup('example.com', () => {}), { message: /TRIPWIRE/ });
  await t.throwsAsync(() => dns.promises.lookup('example.org'), { message: /TRIPWIRE/ });
});

test('tripwire: loopback stays reachable', async (t) => {
  const server = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve, reject) => net.connect(port, '127.0.0.1').once('connect', resolve).once('error', reject));
  await new Promise<void>((resolve, reject) => net.connect(port, 'localhost').once('connect', resolve).once('error', reject));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  t.pass();
});
