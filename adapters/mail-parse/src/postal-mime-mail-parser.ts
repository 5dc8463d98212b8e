import type { MessageParser, ParseFailure, ParseOutcome } from '@ephemail/core';
import PostalMime from 'postal-mime';
import { DEFAULT_LIMITS, precheck, type MailParseLimits } from './limits.js';
import { installBodyDecoders } from './body-decoders.js';
import { toParsedMessage } from './to-parsed-message.js';

/** Options of the parser: any subset of the limits, plus the envelope sender when known. */
export type MailParseOptions = Partial<MailParseLimits>;

const failure = (error: ParseFailure): ParseOutcome => ({ ok: false, error });

const overBudget = (started: number, limits: MailParseLimits): ParseFailure | undefined => {
  const elapsedMs = performance.now() - started;
  return elapsedMs > limits.timeBudgetMs ? { _tag: 'ParseBudgetExceeded', elapsedMs, budgetMs: limits.timeBudgetMs } : undefined;
};

/** A MessageParser built on postal-mime, with a MailParser-style envelope option per call. */
export interface PostalMimeMailParser extends MessageParser {
  /** Parses one message; `envelopeFrom` is the SMTP MAIL FROM when the caller has it. */
  parse(raw: Uint8Array, envelopeFrom?: string): Promise<ParseOutcome>;
  readonly limits: MailParseLimits;
}

/**
 * Creates the parser. Caps are checked on the raw bytes before parsing; the time budget is
 * checked after each stage (postal-mime gives no hook to stop mid-parse, so the caps are what
 * bound the worst case: see docs/adr/0003-mime-parser.md). Never throws.
 */
export const createPostalMimeMailParser = (options: MailParseOptions = {}): PostalMimeMailParser => {
  const limits: MailParseLimits = { ...DEFAULT_LIMITS, ...options };
  const parse = async (raw: Uint8Array, envelopeFrom = ''): Promise<ParseOutcome> => {
    const started = performance.now();
    // Once per process; after that a check of one variable (see removeBodyDecoders).
    installBodyDecoders();
    const checked = precheck(raw, limits);
    if (checked._tag !== 'BodyTypes') return failure(checked);
    try {
      const email = await PostalMime.parse(raw, {
        maxNestingDepth: limits.maxDepth,
        maxHeadersSize: limits.maxHeaderBytes,
        maxRfc822NestingDepth: 2,
        attachmentEncoding: 'arraybuffer',
      });
      const late = overBudget(started, limits);
      if (late) return failure(late);
      const message = toParsedMessage(email, envelopeFrom, checked);
      const later = overBudget(started, limits);
      return later ? failure(later) : { ok: true, message };
    } catch (e) {
      return failure({ _tag: 'MalformedMessage', reason: e instanceof Error ? e.message : String(e) });
    }
  };
  return { parse, limits };
};
