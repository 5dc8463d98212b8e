import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { verifyWebhook } from '@ephemail/core';
import { SeenIds } from './seen-ids.js';

/** A delivery as ephemail posts it. */
export interface WebhookEvent {
  readonly id: string;
  readonly type: string;
  readonly timestamp: string;
  /** Type-specific details; every event's data names the identity it concerns. */
  readonly data: Readonly<{ identity_id: string } & Record<string, unknown>>;
}

export interface ReceiverOptions {
  /** The endpoint's signing secret; during a rotation, both the new and the old. */
  readonly secrets: string | readonly string[];
  /** What to do with each new event. A throw answers 500, so ephemail retries. */
  readonly onEvent?: (event: WebhookEvent) => void | Promise<void>;
  /** Event ids remembered for deduplication. Default 10,000. */
  readonly remember?: number;
  /** Bodies larger than this are refused. Default 256 KiB. */
  readonly maxBodyBytes?: number;
  /** The receiver's clock (tests pass a fixed one). */
  readonly now?: () => Date;
}

const answer = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** The raw body, exactly as sent: the signature covers these bytes, not a re-serialised object. */
const readBody = (req: IncomingMessage, limit: number): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= limit ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
  });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const parseEvent = (raw: Buffer): WebhookEvent | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(value) || !isObject(value.data) || typeof value.data.identity_id !== 'string') return undefined;
  const { id, type, timestamp } = value;
  if (typeof id !== 'string' || id === '' || typeof type !== 'string' || typeof timestamp !== 'string') return undefined;
  return value as unknown as WebhookEvent;
};

/**
 * The receiver contract: a bad or stale signature answers 403 `invalid_webhook_signature`
 * (checked first, before the body is trusted at all); a body that is not a delivery answers 400
 * `invalid_payload`; an event id seen before answers 200 `{duplicate: true}` without handling it
 * again (deliveries are at least once); a new event answers 200 `{received: true}`.
 */
export const createWebhookReceiver = (options: ReceiverOptions): RequestListener => {
  const seen = new SeenIds(options.remember ?? 10_000);
  const now = options.now ?? (() => new Date());
  return async (req, res) => {
    if (req.method !== 'POST') return answer(res, 405, { error: 'method_not_allowed' });
    const raw = await readBody(req, options.maxBodyBytes ?? 256 * 1024);
    if (raw === undefined) return answer(res, 400, { error: 'invalid_payload' });
    if (!verifyWebhook(options.secrets, req.headers, raw, now()).valid) return answer(res, 403, { error: 'invalid_webhook_signature' });
    const event = parseEvent(raw);
    if (event === undefined) return answer(res, 400, { error: 'invalid_payload' });
    if (seen.has(event.id)) return answer(res, 200, { duplicate: true });
    try {
      await options.onEvent?.(event);
    } catch {
      return answer(res, 500, { error: 'handler_failed' });
    }
    seen.add(event.id);
    answer(res, 200, { received: true });
  };
};
