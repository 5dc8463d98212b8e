/**
 * Delivery-to-API latency: for each message, a long-poll on the identity's latest extraction is
 * started first (`wait=30`, `after=<the previous extraction>`), then the message goes out over
 * a raw SMTP connection, and the clock runs from the moment the final `<CRLF>.<CRLF>` of DATA
 * was written to the moment the long-poll's answer was read. Each message carries a fresh
 * 6-digit code, and the answer must reveal that very code, or the sample does not count.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Extraction } from './host-api.js';
import { awaitExtraction, createIdentity } from './host-api.js';
import { SmtpClient } from './smtp-client.js';
import type { HostApi } from './targets.js';

const WAIT_SECONDS = 30;
/** Messages sent first and not counted, so the timings are of a warmed-up process. */
export const LATENCY_WARMUP = 20;

export interface LatencyResult {
  readonly messages: number;
  /** End of DATA to the long-poll answer. */
  readonly apiMs: Percentiles;
  /** End of DATA to the 250 reply (sent once the message is stored). */
  readonly replyMs: Percentiles;
  /** Answers, warm-up included, that did not reveal the code just sent (must be 0). */
  readonly wrongAnswers: number;
}

export interface Percentiles {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** Nearest-rank percentiles, in ms with two decimals. */
export const percentiles = (values: readonly number[]): Percentiles => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? 0).toFixed(2));
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
};

const message = (to: string, code: string): string =>
  [
    'From: Example Accounts <accounts@service.example>',
    `To: <${to}>`,
    'Subject: Your verification code',
    `Message-ID: <${randomUUID()}@bench.test>`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Your verification code is ${code}.`,
    'It expires in 10 minutes. If you did not ask for it, you can ignore this email.',
  ].join('\r\n');

const freshCode = (previous: string | undefined): string => {
  for (;;) {
    const code = String(randomInt(100_000, 1_000_000));
    if (code !== previous) return code;
  }
};

interface Sample {
  readonly apiMs: number;
  readonly replyMs: number;
  readonly extraction: Extraction | undefined;
  readonly code: string;
}

const oneMessage = async (api: HostApi, client: SmtpClient, identity: { id: string; email: string }, state: { after?: string; code?: string }): Promise<Sample> => {
  const code = freshCode(state.code);
  const poll = awaitExtraction(api, identity.id, WAIT_SECONDS, state.after);
  const sent = await client.send('accounts@service.example', identity.email, message(identity.email, code));
  const replyMs = performance.now() - sent.endOfData;
  if (sent.reply.code !== 250) throw new Error(`the host answered ${sent.reply.code} ${sent.reply.text} to a latency message`);
  const { extraction, at } = await poll;
  return { apiMs: at - sent.endOfData, replyMs, extraction, code };
};

/** Sends `count` messages (plus the warm-up), one at a time, to one fresh identity of the host. */
export const measureLatency = async (api: HostApi, smtpPort: number, count: number, progress: (done: number) => void): Promise<LatencyResult> => {
  const identity = await createIdentity(api, 'smtp latency');
  const client = await SmtpClient.open(smtpPort);
  const state: { after?: string; code?: string } = {};
  const apiMs: number[] = [];
  const replyMs: number[] = [];
  let wrongAnswers = 0;
  try {
    for (let i = 0; i < LATENCY_WARMUP + count; i++) {
      const sample = await oneMessage(api, client, identity, state);
      state.after = sample.extraction?.id ?? state.after;
      state.code = sample.code;
      if (sample.extraction?.value !== sample.code) wrongAnswers += 1;
      if (i < LATENCY_WARMUP) continue;
      apiMs.push(sample.apiMs);
      replyMs.push(sample.replyMs);
      if ((i - LATENCY_WARMUP + 1) % 100 === 0) progress(i - LATENCY_WARMUP + 1);
    }
  } finally {
    await client.quit();
  }
  return { messages: count, apiMs: percentiles(apiMs), replyMs: percentiles(replyMs), wrongAnswers };
};
