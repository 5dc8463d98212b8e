import type { StorageDigest } from '../mail/body-span.js';
import type { Extraction, ParsedMessage } from './types.js';

/** Why raw bytes did not become a ParsedMessage; expected outcomes for hostile or broken mail. */
export type ParseFailure =
  | { readonly _tag: 'MessageTooLarge'; readonly size: number; readonly max: number }
  | { readonly _tag: 'TooManyParts'; readonly parts: number; readonly max: number }
  | { readonly _tag: 'ParseBudgetExceeded'; readonly elapsedMs: number; readonly budgetMs: number }
  | { readonly _tag: 'MalformedMessage'; readonly reason: string };

/** The outcome of parsing one message. */
export type ParseOutcome =
  | {
      readonly ok: true;
      readonly message: ParsedMessage;
      /**
       * The engine's answer for the message as a delivery reads it (`extractForDelivery`), when the
       * parser ran the engine already, on another thread; otherwise the delivery runs it.
       */
      readonly extraction?: Extraction;
      /**
       * What storing the message derives from the raw bytes (`digestForStorage`), when the parser
       * derived it already, on another thread. A body with a span in it may be empty in `message`
       * (it is then in the raw bytes verbatim, ADR 0023); a parser empties a body only when it
       * also gave `extraction`, which needs the body.
       */
      readonly digest?: StorageDigest;
    }
  | { readonly ok: false; readonly error: ParseFailure };

/**
 * Turns raw RFC 5322 bytes into a ParsedMessage. Contract: never throws for any input (size,
 * structure and encoding problems are `ok: false` values); refuses input over its size or part
 * caps before parsing it; gives up with `ParseBudgetExceeded` past its time budget; keeps
 * attachment metadata only, never attachment content.
 */
export interface MessageParser {
  parse(raw: Uint8Array): Promise<ParseOutcome>;
}

/** A one-line reason for a parse failure, for logs and the CLI. */
export const describeParseFailure = (e: ParseFailure): string => {
  switch (e._tag) {
    case 'MessageTooLarge':
      return `message too large: ${e.size} bytes (max ${e.max})`;
    case 'TooManyParts':
      return `too many MIME parts: ${e.parts} (max ${e.max})`;
    case 'ParseBudgetExceeded':
      return `parse took ${Math.round(e.elapsedMs)} ms (budget ${e.budgetMs} ms)`;
    case 'MalformedMessage':
      return `malformed message: ${e.reason}`;
    default: {
      const never: never = e;
      return String(never);
    }
  }
};
