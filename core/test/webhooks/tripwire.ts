/**
 * Loopback-only network tripwire for the webhook and outbound-HTTP suites. Import it FIRST in
 * every test file of those suites: from then on any attempt to open a TCP/TLS connection to an
 * address outside 127.0.0.0/8 and ::1, or to resolve a name other than `localhost` through the
 * system resolver, throws (synchronously where the destination is known up front, otherwise as
 * an uncaught exception that fails the run), so even a broken guard never sends a packet off
 * this machine.
 */
import dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';

const MARK = Symbol.for('ephemail.test.tripwire');
type Lookup = (hostname: string, options: unknown, callback: (...args: unknown[]) => void) => void;

export const violations: string[] = [];
let attempts = 0;

/** Connections attempted in this process so far (loopback included): a test of "no connection" compares it before and after. */
export const connectionAttempts = (): number => attempts;

const isLoopbackAddress = (address: string): boolean =>
  (net.isIPv4(address) && address.split('.')[0] === '127') || (net.isIPv6(address) && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(address));

const trip = (what: string): Error => {
  violations.push(what);
  return new Error(`TRIPWIRE: refused ${what} (tests may only reach 127.0.0.0/8 and ::1)`);
};

const isLoopbackName = (host: string): boolean => host === 'localhost' || isLoopbackAddress(host);

/** Wraps a lookup so every address it hands the socket is checked before the connect happens. */
const checkedLookup =
  (inner: Lookup): Lookup =>
  (hostname, options, callback) =>
    inner(hostname, options, (error: unknown, address: unknown, family: unknown) => {
      const all = Array.isArray(address) ? (address as { address: string }[]).map((entry) => entry.address) : [String(address)];
      const bad = error ? undefined : all.find((candidate) => !isLoopbackAddress(candidate));
      if (bad === undefined) return callback(error, address, family);
      const failure = trip(`connection to ${hostname} resolved as ${bad}`);
      process.nextTick(() => {
        throw failure;
      });
      callback(failure);
    });

/** The destination of a `connect(...)` call in any of its argument forms; IPC paths pass. */
const guardConnectArgs = (args: unknown[]): void => {
  attempts += 1;
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'string' && !/^\d+$/.test(first)) return; // a local socket path
  const options = (typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }) as Record<string, unknown>;
  if (typeof options.path === 'string') return;
  const host = typeof options.host === 'string' ? options.host : 'localhost';
  if (net.isIP(host) !== 0) {
    if (!isLoopbackAddress(host)) throw trip(`connection to ${host}`);
    return;
  }
  options.lookup = checkedLookup((options.lookup as Lookup | undefined) ?? (dns.lookup as unknown as Lookup));
};

const install = (): void => {
  const registry = globalThis as unknown as Record<symbol, boolean>;
  if (registry[MARK]) return;
  registry[MARK] = true;
  const socketConnect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    guardConnectArgs(args);
    return socketConnect.apply(this, args);
  } as typeof net.Socket.prototype.connect;
  for (const [owner, name] of [[net, 'connect'], [net, 'createConnection'], [tls, 'connect']] as const) {
    const original = (owner as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    (owner as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      guardConnectArgs(args);
      return original(...args);
    };
  }
  const lookup = dns.lookup as unknown as (...args: unknown[]) => unknown;
  (dns as unknown as Record<string, unknown>).lookup = (hostname: string, ...rest: unknown[]) => {
    if (!isLoopbackName(hostname)) throw trip(`system DNS lookup of ${hostname}`);
    return lookup(hostname, ...rest);
  };
  const promisesLookup = dns.promises.lookup as (...args: unknown[]) => Promise<unknown>;
  (dns.promises as unknown as Record<string, unknown>).lookup = async (hostname: string, ...rest: unknown[]) => {
    if (!isLoopbackName(hostname)) throw trip(`system DNS lookup of ${hostname}`);
    return promisesLookup(hostname, ...rest);
  };
};

install();

/** Whether the tripwire is armed in this process (tests assert it). */
export const tripwireInstalled = (): boolean => (globalThis as unknown as Record<symbol, boolean>)[MARK] === true;
