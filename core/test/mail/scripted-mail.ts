import { randomUUID } from 'node:crypto';
import type { Candidate, ConsumerOptions, Extraction, MessageParser, ParsedMessage, SecretType } from '../../src/index.js';
import { createEphemail, createMemoryDocumentStore, FakeClock } from '../../src/index.js';
import { newPrincipal, right } from '../support.js';

/** A secret as a test scripts it: type, value, confidence (and a link's kind). */
export interface Scripted {
  readonly type: SecretType;
  readonly value: string;
  readonly confidence: number;
}

const candidate = (s: Scripted): Candidate => ({
  type: s.type,
  value: s.value,
  ...(s.type === 'magic_link' ? { link_kind: 'sign_in' as const } : {}),
  confidence: s.confidence,
  evidence: { sources: ['text'], snippet: s.value, signals: {} },
});

/**
 * A parser that hands over, with each message, the engine's answer the test scripted for it, as
 * a parser running the engine on a delivery thread does: reads are tested against exact
 * candidates and confidences, whatever the engine of the day would score.
 */
const scriptedParser = (scripts: Map<string, Extraction>): MessageParser => ({
  parse: async (raw) => {
    const key = Buffer.from(raw).toString('utf8');
    const message: ParsedMessage = {
      envelopeFrom: '', from: { address: 'no-reply@app.example.com', name: '' }, to: [], subject: key, date: null, messageId: `<${key}@app.example.com>`,
      headers: {}, text: key, html: '', attachments: [],
    };
    return { ok: true, message, extraction: scripts.get(key) ?? { top: undefined, candidates: [], ruleMismatch: false } };
  },
});

/**
 * A service on the memory store with a fake clock whose mail carries scripted extractions; its
 * principal holds `scopes` (by default those of reading and revealing), `consumer` as given.
 */
export const scriptedService = async (options: { readonly scopes?: string[]; readonly consumer?: ConsumerOptions } = {}) => {
  const scopes = options.scopes ?? ['identities:read', 'identities:write', 'secrets:read'];
  const scripts = new Map<string, Extraction>();
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const app = createEphemail({
    store: createMemoryDocumentStore(), inboxDomain: 'inbox.test', clock, parser: scriptedParser(scripts), longPollIntervalMs: 10,
    ...(options.consumer === undefined ? {} : { consumer: options.consumer }),
  });
  await app.init();
  const principal = await newPrincipal(app, { scopes });
  /** Delivers one message whose candidates are `ranked` (best first), a second later than the last. */
  const deliver = async (to: string, ...ranked: Scripted[]) => {
    clock.advance(1000);
    const key = `mail-${randomUUID()}`;
    const candidates = ranked.map(candidate);
    scripts.set(key, { top: candidates[0], candidates, ruleMismatch: false });
    const [outcome] = await app.mail.ingress.deliver(Buffer.from(key), { transport: 'smtp', mailFrom: 'bounce@app.example.com', rcptTo: [to] });
    if (outcome?.kind !== 'stored') throw new Error(`not stored: ${JSON.stringify(outcome)}`);
  };
  const newIdentity = async (ttlHours = 24) => right(await app.identities.create(principal, { label: 'scripted', ttl_hours: ttlHours }));
  /** Resolves once `count` long-polls sleep: each has checked once and found nothing. */
  const sleeping = async (count = 1) => {
    for (let turn = 0; turn < 10_000 && app.longPolls.sleeping() < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    if (app.longPolls.sleeping() < count) throw new Error('the long-poll never started waiting');
  };
  return { app, clock, principal, deliver, newIdentity, sleeping };
};

export const CODE = { type: 'otp', value: '572049', confidence: 0.9 } as const;
export const LINK = { type: 'magic_link', value: 'https://app.example.com/login?token=Hs7Kq2Lm9Xp4Rt6Vw8Yz', confidence: 0.8 } as const;
