import type { Contribution } from './model.js';
import type { Candidate, SecretType } from './types.js';

/**
 * The signals that read only what surrounds a secret: the words before, after and above it, the
 * line it stands on, where in the mail it is (footer, subject, several parts), what the anchor
 * and the text leading to a link say. Their presence and value are the same whatever the secret
 * spells, so a caller who may not see the secret may see them.
 *
 * Left out, because the secret's own characters or length decide them:
 * - codes: `shape` (a prior per length and kind), `split` (the digit groups it is printed in),
 *   `action_before` (read for hex tokens only), `decoy_word` (one of its tests runs only for a
 *   code that is not all digits), `origin_bound` (an origin line's code of 4 to 12 characters),
 *   `link_carries_code` (a link holding the code, unless the code is too short to be the link's
 *   own token);
 * - links: `token`, `no_token`, `url_words`, `no_purpose` (read from the path and query),
 *   `footer_link` (the URL's unsubscribe words, or the anchor's), `social` and `site` (the host a
 *   redirect wraps is in the query), `carries_shown_code` (a link holding a code);
 * - both: `bias` and `base`, the same for every candidate of a type: with them the list would read
 *   as the score's terms, whose sum it no longer is.
 * A signal the engine gains later is left out until it is named here: the list is an allow-list.
 */
const CONTEXT_SIGNALS: Readonly<Record<SecretType, ReadonlySet<string>>> = {
  otp: new Set([
    'keyword_before',
    'keyword_after',
    'keyword_line_above',
    'alone_on_line',
    'labelled',
    'duration',
    'hash_prefix',
    'parenthetical',
    'footer',
    'alternative',
    'several_parts',
    'subject_says_code',
    'subject_silent',
    'other_topic',
    'rule',
  ]),
  magic_link: new Set([
    'anchor_words',
    'anchor_action',
    'context_words',
    'role_positive',
    'role_negative',
    'image_only',
    'repeated',
    'alternative',
    'button',
    'footer',
    'subject_silent',
    'other_topic',
  ]),
};

/**
 * A code's line cannot both hold it alone and label it ("Code: 123456"): the two come together
 * only when the engine reads a hex token as a command line ("confirm 0c463dd8…"), which it does
 * for that shape alone, so together they would tell the token's kind.
 */
const COMMAND_LINE = ['alone_on_line', 'labelled'];
const readAsCommandLine = (list: readonly Contribution[]): boolean => COMMAND_LINE.every((signal) => list.some((c) => c.signal === signal));

/**
 * The signals a link's anchor decides, directly or by standing in for the words before it. An
 * anchor that prints the link itself (`<a href="https://…">https://…</a>`) is the secret's own
 * characters, not its context: then they are left out too.
 */
const ANCHOR_SIGNALS = ['anchor_words', 'anchor_action', 'context_words', 'role_positive', 'role_negative'];
const PRINTS_A_LINK = /:\/\/|www\.|[a-z0-9-]\.[a-z]{2,}\//i;

/** The signals of `list` that would tell something of the secret in this candidate, beyond the allow-list. */
const readFromSecret = (candidate: Pick<Candidate, 'type' | 'evidence'>, list: readonly Contribution[]): readonly string[] => {
  if (candidate.type === 'otp') return readAsCommandLine(list) ? COMMAND_LINE : [];
  return PRINTS_A_LINK.test(candidate.evidence.anchorText ?? '') ? ANCHOR_SIGNALS : [];
};

/**
 * The contributions of a candidate's explanation (`list`, as explainCandidate made it) that
 * depend on its context only: what an explanation may show a caller who does not see the secret.
 * The order (largest first) is kept.
 */
export const contextContributions = (candidate: Pick<Candidate, 'type' | 'evidence'>, list: readonly Contribution[]): Contribution[] => {
  const allowed = CONTEXT_SIGNALS[candidate.type];
  const dropped = readFromSecret(candidate, list);
  return list.filter((c) => allowed.has(c.signal) && !dropped.includes(c.signal));
};
