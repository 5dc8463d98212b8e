import { z } from 'zod';
import type { ParsedMessage } from './types.js';

const MAX_PATTERN = 500;

const regexSource = z
  .string()
  .min(1)
  .max(MAX_PATTERN)
  .refine((s) => {
    try {
      new RegExp(s, 'u');
      return true;
    } catch {
      return false;
    }
  }, 'must be a valid regular expression');

/**
 * A template's `extraction_config`: narrows and overrides the generic engine for one identity.
 * Patterns are regular expressions (sender and subject match case-insensitively, anywhere).
 */
export const ExtractionRulesSchema = z.object({
  /** Must match the envelope sender or the From address, else the message yields nothing. */
  sender_pattern: regexSource.optional(),
  /** Must match the subject, else the message yields nothing. */
  subject_pattern: regexSource.optional(),
  /** Only this type is extracted; `auto` (the default) keeps both. */
  extraction_type: z.enum(['otp', 'magic_link', 'auto']).optional(),
  /** Codes are exactly the matches of this pattern (its first group when it has one). */
  code_pattern: regexSource.optional(),
});

/** Validated per-identity extraction rules. */
export type ExtractionRules = z.infer<typeof ExtractionRulesSchema>;

/** True when the message satisfies the rules' sender and subject patterns (absent patterns pass). */
export const matchesRules = (message: ParsedMessage, rules: ExtractionRules): boolean => {
  const sender = (p: string): boolean => {
    const re = new RegExp(p, 'iu');
    return [message.envelopeFrom, message.from.address].some((a) => a.length > 0 && re.test(a));
  };
  if (rules.sender_pattern !== undefined && !sender(rules.sender_pattern)) return false;
  return rules.subject_pattern === undefined || new RegExp(rules.subject_pattern, 'iu').test(message.subject);
};

/** A code found by a rule's `code_pattern`. */
export interface RuleMatch {
  readonly value: string;
  readonly snippet: string;
}

/** Every distinct match of `code_pattern` in the given texts, in order of appearance. */
export const ruleCodes = (pattern: string, texts: readonly string[]): RuleMatch[] => {
  const re = new RegExp(pattern, 'gu');
  const found = new Map<string, RuleMatch>();
  for (const text of texts) {
    for (const m of text.matchAll(re)) {
      const value = (m[1] ?? m[0]).trim();
      if (value.length === 0 || found.has(value)) continue;
      found.set(value, { value, snippet: text.slice(Math.max(0, m.index - 60), m.index + m[0].length + 60) });
      if (found.size >= 5) return [...found.values()];
    }
  }
  return [...found.values()];
};
