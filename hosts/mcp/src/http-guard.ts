import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a host name or address is this machine's loopback. */
export const isLoopback = (host: string): boolean => LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);

const hostnameOf = (value: string, withScheme: boolean): string | undefined => {
  try {
    return new URL(withScheme ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
};

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** A refusal: the status and the text of the JSON-RPC error the caller gets. */
export interface Refusal {
  readonly status: 401 | 403;
  readonly message: string;
}

/** Who may talk to the Streamable HTTP endpoint. */
export interface GuardOptions {
  /** The address the server is bound to. */
  readonly host: string;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly token: string | undefined;
}

/**
 * Checks one request before the MCP transport sees it. The server acts with its API key for
 * whoever reaches it, so: on loopback the Host header must name loopback (a DNS-rebinding page
 * cannot pass), a browser Origin must be loopback unless a token is required, and a configured
 * token must match (compared in constant time). Answers undefined when the request may pass.
 */
export const refuseRequest = (req: IncomingMessage, options: GuardOptions): Refusal | undefined => {
  if (isLoopback(options.host)) {
    const hostname = hostnameOf(req.headers.host ?? '', false);
    if (hostname === undefined || !isLoopback(hostname)) return { status: 403, message: 'Forbidden: the Host header must name loopback' };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && options.token === undefined) {
    const hostname = hostnameOf(origin, true);
    if (hostname === undefined || !isLoopback(hostname)) return { status: 403, message: 'Forbidden: requests from this Origin are not allowed' };
  }
  if (options.token !== undefined) {
    const presented = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(presented), digest(options.token))) return { status: 401, message: 'Unauthorized: send Authorization: Bearer <EPHEMAIL_MCP_TOKEN>' };
  }
  return undefined;
};
