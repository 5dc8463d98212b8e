import { z } from 'zod';
import { checkPattern, matchBounded } from './safe-pattern.js';
import type { ParsedMessage } from './types.js';

/** A pattern as a rule holds it: checked by {@link checkPattern} (valid, short, no catastrophic shape). */
export const SafePatternSource = z.string().superRefine((source, ctx) => {
  const verdict = checkPattern(source);
  if (!verdict.ok) ctx.addIssue({ code: 'custom', message: `pattern ${verdict.reason}` });
});

/**
 * The extraction part of a template's `extraction_config`: narrows and overrides the generic
 * engine for one identity. Patterns are regular expressions (sender and subject match
 * case-insensitively, anywhere); every run of one is bounded in time (safe-pattern.ts).
 */
export const ExtractionRulesSchema = z.object({
  /** Must match the envelope sender or the From address, else the message yields nothing. */
  sender_pattern: SafePatternSource.optional(),
  /** Must match the subject, else the message yields nothing. */
  subject_pattern: SafePatternSource.optional(),
  /** Only this type is extracted; `auto` (the default) keeps both. */
  extraction_type: z.enum(['otp', 'magic_link', 'auto']).optional(),
  /** Codes are exactly the matches of this pattern (its first group when it has one). */
  code_pattern: SafePatternSource.optional(),
});

/** Validated per-identity extraction rules. */
export type ExtractionRules = z.infer<typeof ExtractionRulesSchema>;

/**
 * True when the message satisfies the rules' sender and subject patterns (absent patterns pass).
 * A pattern that runs out of time counts as not matching: the message is kept, not extracted from.
 */
export const matchesRules = (message: ParsedMessage, rules: ExtractionRules): boolean => {
  if (rules.sender_pattern !== undefined) {
    const senders = [message.envelopeFrom, message.from.address].filter((a) => a.length > 0);
    const found = matchBounded(rules.sender_pattern, senders, { flags: 'i', max: 1 });
    if (found === 'timeout' || !found.some((matches) => matches.length > 0)) return false;
  }
  if (rules.subject_pattern === undefined) return true;
  const found = matchBounded(rules.subject_pattern, [message.subject], { flags: 'i', max: 1 });
  return found !== 'timeout' && found[0]!.length > 0;
};

/** A code found by a rule's `code_pattern`. */
export interface RuleMatch {
  readonly value: string;
  readonly snippet: string;
}

/** Every distinct match of `code_pattern` in the given texts (at most 5), in order of appearance. */
export const ruleCodes = (pattern: string, texts: readonly string[]): RuleMatch[] => {
  const runs = matchBounded(pattern, texts, { max: 5 });
  if (runs === 'timeout') return [];
  const found = new Map<string, RuleMatch>();
  runs.forEach((matches, i) => {
    const text = texts[i]!;
    for (const m of matches) {
      const value = (m.group ?? m.match).trim();
      if (value.length === 0 || found.has(value) || found.size >= 5) continue;
      found.set(value, { value, snippet: text.slice(Math.max(0, m.index - 60), m.index + m.match.length + 60) });
    }
  });
  return [...found.values()];
};
