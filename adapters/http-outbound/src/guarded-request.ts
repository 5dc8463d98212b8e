import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import type { AgentPool } from './agent-pool.js';
import { classifyAddress } from './address-policy.js';
import type { Resolver } from './resolver.js';
import { systemResolver } from './resolver.js';
import type { Target } from './url-check.js';
import type { UrlCheck } from './url-check.js';
import { checkUrl } from './url-check.js';

/** Settings of the guarded client (see the README's options table). */
export interface GuardOptions {
  /** Admits plain `http://` (and https) to loopback hosts: development mode only. Default false. */
  readonly allowHttpLoopback?: boolean;
  /** Resolves names, once per attempt. Default: the system resolver, every address. */
  readonly resolver?: Resolver;
  /** Whole-attempt deadline, DNS to last body byte. Default 10,000 ms. */
  readonly timeoutMs?: number;
  /** Response body bytes kept; a longer body is cut off and the connection closed. Default 64 KiB. */
  readonly maxResponseBytes?: number;
  /** Extra trusted CA certificates for https (a private CA; tests). Default: the system's. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
}

export interface GuardedRequest {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Overrides the client's `timeoutMs` for this request. */
  readonly timeoutMs?: number;
}

export type FailureKind = 'refused' | 'dns' | 'timeout' | 'connection' | 'tls';

export type GuardedResponse =
  | {
      readonly status: number;
      readonly headers: http.IncomingHttpHeaders;
      readonly body: Buffer;
      /** Whether the body was longer than `maxResponseBytes` and cut off. */
      readonly truncated: boolean;
      /** The address the connection went to. */
      readonly address: string;
    }
  | { readonly error: string; readonly kind: FailureKind };

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

const fail = (kind: FailureKind, error: string): GuardedResponse => ({ kind, error });

/** Resolves the target once and checks every address; any refused address refuses the name. */
const pinAddress = async (target: Target, options: GuardOptions): Promise<{ address: string } | GuardedResponse> => {
  if (target.literal) return { address: target.host };
  let found;
  try {
    found = await (options.resolver ?? systemResolver)(target.host);
  } catch (error) {
    return fail('dns', `dns: ${target.host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (found.length === 0) return fail('dns', `dns: ${target.host} has no address`);
  for (const { address } of found) {
    const verdict = classifyAddress(address, options.allowHttpLoopback ?? false);
    if (!verdict.allowed) return fail('refused', `refused: ${target.host} resolves to a refused address: ${verdict.reason}`);
    if (target.protocol === 'http:' && !verdict.loopback) return fail('refused', `refused: plain http:// to ${target.host}, which is not loopback`);
  }
  return { address: found[0]!.address };
};

/** A lookup that answers the checked address whatever it is asked: the connection is pinned. */
const pinnedLookup = (address: string): LookupFunction => {
  const family = address.includes(':') ? 6 : 4;
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
};

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO|ERR_TLS|HOSTNAME|ALTNAME/;

const failureOf = (error: NodeJS.ErrnoException): GuardedResponse => {
  const code = error.code ?? error.message;
  if (TLS_CODES.test(code)) return fail('tls', `tls: ${code}`);
  if (code === 'ECONNREFUSED') return fail('connection', 'connection refused');
  return fail('connection', `connection: ${code}`);
};

export interface RequestContext {
  readonly options: GuardOptions;
  /** Pooled keep-alive agents; without a pool every attempt opens (and closes) its own connection. */
  readonly agents?: AgentPool;
  /** The static URL checks (default `checkUrl`); a client passes a memo of them. Never DNS. */
  readonly check?: (url: string) => UrlCheck;
}

type Settle = (response: GuardedResponse) => void;

/** Collects at most `cap` body bytes; a longer body is cut off and its connection closed. */
const collect = (res: http.IncomingMessage, cap: number, address: string, signal: AbortSignal, settle: Settle): void => {
  const chunks: Buffer[] = [];
  let size = 0;
  const answer = (truncated: boolean) =>
    settle({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated, address });
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= cap) return void chunks.push(chunk);
    chunks.push(chunk.subarray(0, chunk.length - (size - cap)));
    res.destroy();
    answer(true);
  });
  res.once('end', () => answer(false));
  res.once('error', () => settle(signal.aborted ? fail('timeout', 'timeout') : fail('connection', 'connection: the response broke off')));
};

/** Defence in depth: a socket that reached any other address than the checked one is dropped. */
const assertPinned = (socket: Socket, address: string): void => {
  const check = () => {
    const remote = socket.remoteAddress?.replace(/^::ffff:/, '');
    if (remote !== undefined && remote !== address) socket.destroy(new Error(`connected to ${remote}, not the checked ${address}`));
  };
  if (socket.connecting) socket.once('connect', check);
  else check();
};

/** Sends the request to the pinned address; never rejects. */
const send = (target: Target, address: string, request: GuardedRequest, context: RequestContext, signal: AbortSignal): Promise<GuardedResponse> =>
  new Promise((settle) => {
    const { options } = context;
    const servername = target.literal ? '' : target.host;
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const req = (target.protocol === 'https:' ? https : http).request({
      protocol: target.protocol,
      hostname: target.host,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      method: request.method ?? 'GET',
      headers: { ...request.headers, host: target.url.host, ...(body ? { 'content-length': String(body.length) } : {}) },
      lookup: pinnedLookup(address),
      agent: context.agents?.agentFor(target.protocol, address, target.port, servername) ?? false,
      signal,
      ...(target.protocol === 'https:' ? { servername: servername || undefined, ca: options.ca as string[] | undefined, rejectUnauthorized: true } : {}),
    });
    req.once('socket', (socket) => assertPinned(socket, address));
    req.once('error', (error: NodeJS.ErrnoException) => settle(signal.aborted ? fail('timeout', 'timeout') : failureOf(error)));
    req.once('response', (res) => collect(res, options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, address, signal, settle));
    req.end(body);
  });

/**
 * One guarded request to a user-supplied URL: static checks, one DNS resolution with every
 * address checked, a connection pinned to the checked address (TLS name and Host header stay
 * the URL's), no redirect followed (a 3xx is answered as it is), the body capped and the whole
 * attempt bounded by the deadline. Never rejects: failures are `{ error, kind }`.
 */
export const guardedRequest = (url: string, request: GuardedRequest = {}, options: GuardOptions = {}): Promise<GuardedResponse> =>
  guardedRequestWith(url, request, { options });

/** {@link guardedRequest} with the client's connection pool. */
export const guardedRequestWith = async (url: string, request: GuardedRequest, context: RequestContext): Promise<GuardedResponse> => {
  const { options } = context;
  const checked = context.check?.(url) ?? checkUrl(url, { allowHttpLoopback: options.allowHttpLoopback });
  if (!checked.ok) return fail('refused', `refused: ${checked.reason}`);
  const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<GuardedResponse>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(fail('timeout', `timeout after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const attempt = async (): Promise<GuardedResponse> => {
    const pinned = await pinAddress(checked.target, options);
    if ('error' in pinned || controller.signal.aborted) return 'error' in pinned ? pinned : fail('timeout', 'timeout');
    return send(checked.target, pinned.address, request, context, controller.signal);
  };
  try {
    return await Promise.race([attempt(), deadline]);
  } finally {
    clearTimeout(timer);
  }
};
