import { opensAsAlternative } from './alternative.js';
import { eachMatch } from './each-match.js';
import { KINDS, hasKindWords, kindsIn } from './kind-words.js';
import { ACTION_WORDS, NEGATIVE_LINK_WORDS, compileWords } from './lexicon.js';
import { leadOf, roleIn } from './link-role.js';
import type { MessageView, Source } from './segments.js';
import type { LinkKind } from './types.js';
import { isTrimmed } from './whitespace.js';
import { ownsNamedToken, parseHttpUrl, queryPairs, siteOf, unwrapRedirect, urlFeatures } from './url-features.js';

/** A distinct link of a message, scored. */
export interface LinkSighting {
  readonly value: string;
  readonly score: number;
  readonly signals: Record<string, number>;
  readonly sources: Source[];
  readonly anchorText: string | undefined;
  readonly unwrapped: string | undefined;
  /** The kind and snippet, worked out only for a link that is reported (most score too low). */
  readonly describe: () => { readonly kind: LinkKind; readonly snippet: string };
}

interface Seen {
  href: string;
  /** Where the link was seen, in the order first seen (never more than two). */
  sources: Source[];
  /** The first non-empty anchor text, or ''. */
  anchor: string;
  imageOnly: boolean;
  button: boolean;
  context: string;
  /** The words that introduce the link where it was first seen with any (see leadOf). */
  lead: string;
  count: number;
  inFooter: boolean;
}

// Printed URLs end at the first non-ASCII character: in CJK and Korean text a particle often
// follows the URL with no space ("…/confirm/을 클릭하세요").
// Braces are not URL characters either: templates print `{url}` and `{{url}}`.
const URL_RE = /https?:\/\/[^\s<>"'\][)({}\u0080-\uffff]+/g;
const NEGATIVE_RE = compileWords(NEGATIVE_LINK_WORDS, 'i');
const ACTION_RE = compileWords(ACTION_WORDS, 'i');
const SOCIAL = /(^|\.)(twitter|x|facebook|linkedin|youtube|instagram|github|reddit|tiktok|medium|discord|pinterest|t)\.(com|gg|me)$|(^|\.)(apps\.apple|play\.google)\.com$/i;
const BASE = -2.5;
const CONTEXT_CHARS = 160;

/**
 * Records one sighting of `href`. Takes its facts as arguments rather than an options object,
 * and keeps the sources in an array rather than a Set: a message's links are few, and those
 * objects were built and dropped for every anchor.
 */
const remember = (map: Map<string, Seen>, href: string, source: Source, anchor: string, imageOnly: boolean, button: boolean, context: string, inFooter: boolean): void => {
  let seen = map.get(href);
  if (seen === undefined) {
    seen = { href, sources: [source], anchor, imageOnly, button, context: '', lead: '', count: 0, inFooter };
    map.set(href, seen);
  } else {
    if (!seen.sources.includes(source)) seen.sources.push(source);
    if (seen.anchor === '') seen.anchor = anchor;
    seen.imageOnly &&= imageOnly;
    seen.button ||= button;
    seen.inFooter &&= inFooter;
  }
  seen.count += 1;
  if (context !== '' && seen.context.length < CONTEXT_CHARS) seen.context += ` ${context}`;
  if (seen.lead === '' && context !== '') seen.lead = leadOf(context);
};

/** `href` without the sentence punctuation that may follow a printed URL: as `replace(/[.,;:!?'"]+$/, '')`, without the pattern. */
const trimPunctuation = (href: string): string => {
  let end = href.length;
  while (end > 0 && `.,;:!?'"`.includes(href.charAt(end - 1))) end -= 1;
  return end === href.length ? href : href.slice(0, end);
};

// Where a URL's own structure goes on: a new path segment, query or fragment, or a value.
const URL_JOINTS = '/?#&=';

/**
 * True when the printed URL is `href` with words run on after it ("…/TOKENThanks", a text's
 * direction mark): not when what follows goes on into a path or query of its own. A site's
 * root (`https://site/`) is the start of every link of the site, not the same link.
 */
const runsOnPast = (printed: string, href: string): boolean =>
  printed.length > href.length && printed.startsWith(href) && !URL_JOINTS.includes(href.charAt(href.length - 1)) && !URL_JOINTS.includes(printed.charAt(href.length));

/** Collects every http(s) link: anchors of the HTML part and URLs printed in the text. */
const collect = (view: MessageView): Map<string, Seen> => {
  const map = new Map<string, Seen>();
  const html = view.segments.find((s) => s.source === 'html');
  // Anchors come in the order of the text: each is looked for after the one before, so two
  // anchors with one text ("click here" twice) each get the words before their own place.
  let cursor = 0;
  for (const link of view.links) {
    let at = link.text && html ? html.text.indexOf(link.text, cursor) : -1;
    if (at < 0 && link.text && html) at = html.text.indexOf(link.text);
    if (at >= 0) cursor = at + link.text.length;
    const context = at > 0 && html ? html.text.slice(Math.max(0, at - CONTEXT_CHARS), at) : '';
    const inFooter = html !== undefined && at >= html.footerAt;
    remember(map, link.href, 'html', link.text, link.imageOnly === true, link.button === true, context, inFooter);
  }
  const anchors = [...map.keys()];
  for (const seg of view.segments) {
    // URL_RE needs "http" (case as written): most segments without it are not scanned.
    if (seg.source === 'subject' || !seg.text.includes('http')) continue;
    eachMatch(URL_RE, seg.text, (m) => {
      const context = seg.text.slice(Math.max(0, m.index - CONTEXT_CHARS), m.index);
      const printed = trimPunctuation(m[0]);
      // A printed URL that runs on past an anchor's href (into the words after it, or joined by
      // the text's direction) is that link: it counts as one more sighting of the anchor.
      const same = map.has(printed) ? printed : anchors.find((a) => runsOnPast(printed, a));
      remember(map, same ?? printed, seg.source, '', false, false, context, m.index >= seg.footerAt);
    });
  }
  return map;
};

// What one vote weighs: the URL's own words and the anchor, then the subject, then the context.
const HINT_VOTE = 2;
const ANCHOR_VOTE = 2;
const SUBJECT_VOTE = 1.5;
const CONTEXT_VOTE = 1;

/** Kind votes of the subject, computed once per message. */
const subjectVotes = (subject: string): Map<LinkKind, number> => new Map(kindsIn(subject).map((kind) => [kind, SUBJECT_VOTE]));

/**
 * The kind that wins whatever votes are still to come, when one does: it leads every other kind
 * (and 'other', at 0) by more than `open`, the most those votes can add to a single kind. With
 * one kind strictly ahead, neither the order of the votes nor the tie rule can change the answer.
 */
const decided = (votes: ReadonlyMap<LinkKind, number>, open: number): LinkKind | undefined => {
  let lead: LinkKind | undefined;
  let top = 0;
  let second = 0;
  for (const [k, w] of votes) {
    if (w > top) {
      second = top;
      top = w;
      lead = k;
    } else if (w > second) second = w;
  }
  return top - second > open ? lead : undefined;
};

/**
 * Votes for a link kind: the URL's own words, then the anchor, the text before it, the subject.
 * `anchorWords` is whether the anchor holds a kind word at all, as scoring found.
 */
const classify = (hint: LinkKind | undefined, anchor: string, anchorWords: boolean, context: string, subject: () => ReadonlyMap<LinkKind, number>): LinkKind => {
  // An anchor without kind words (most are) has no kinds to find; nor has an empty context.
  const inAnchor = anchorWords ? kindsIn(anchor) : [];
  // Most reported links are settled by their URL and anchor words: the subject and the context
  // (up to 300 characters, the costliest text to scan) are read only when they could still
  // change the winner.
  const known = new Map<LinkKind, number>();
  if (hint) known.set(hint, HINT_VOTE);
  for (const kind of inAnchor) known.set(kind, (known.get(kind) ?? 0) + ANCHOR_VOTE);
  const early = decided(known, SUBJECT_VOTE + CONTEXT_VOTE);
  if (early !== undefined) return early;
  const withSubject = new Map<LinkKind, number>(subject());
  for (const [kind, w] of known) withSubject.set(kind, (withSubject.get(kind) ?? 0) + w);
  const late = decided(withSubject, CONTEXT_VOTE);
  if (late !== undefined) return late;
  // Still open: every vote is cast in its own order, since that order settles ties. The subject
  // first, then the hint, then in kind order, anchor before context, as the kinds were once tested one by one.
  const votes = new Map<LinkKind, number>(subject());
  const vote = (k: LinkKind, w: number): void => void votes.set(k, (votes.get(k) ?? 0) + w);
  if (hint) vote(hint, HINT_VOTE);
  const inContext = context === '' ? [] : kindsIn(context);
  for (const kind of KINDS) {
    if (inAnchor.includes(kind)) vote(kind, ANCHOR_VOTE);
    if (inContext.includes(kind)) vote(kind, CONTEXT_VOTE);
  }
  let best: [LinkKind, number] = ['other', 0];
  for (const [k, w] of votes) if (w > best[1]) best = [k, w];
  return best[0];
};

interface Scored {
  readonly seen: Seen;
  readonly hint: LinkKind | undefined;
  readonly anchor: string;
  readonly anchorWords: boolean;
  readonly score: number;
  readonly signals: Record<string, number>;
  readonly unwrapped: string | undefined;
}

const TOKEN_SIGNAL = [-2.5, 1, 2.5] as const;
// An anchor that prints a URL and nothing else (a plain-text mail's HTML twin, a linkified URL).
const PRINTED_URL = /^\s*(?:https?:\/\/|www\.)[^\s/]*(\S*)\s*$/i;

/**
 * The words an anchor says, as its words are read: an anchor printing a URL says what its path
 * says, never what its host name does (`docs.`, `help.`, `support.` name a site, not the link).
 */
const anchorWordsOf = (anchor: string): string => {
  if (!anchor.includes('http') && !anchor.includes('www.')) return anchor;
  const m = PRINTED_URL.exec(anchor);
  return m === null ? anchor : (m[1] ?? '');
};

const scoreLink = (seen: Seen, senderSite: string | undefined, silent: boolean): Scored | undefined => {
  const outer = parseHttpUrl(seen.href);
  if (!outer) return undefined;
  // The outer URL's query pairs are read once, for both the redirect and the features.
  const query = queryPairs(outer);
  const wrapped = unwrapRedirect(outer, query);
  // A link of the host it sends to that carries a secret of its own is the link, whatever page it
  // opens afterwards (`/members/?token=…&r=https://same.host/blog/`); so is one of another host of
  // that site with a secret named as one. Any other link that carries a URL is a click tracker, on
  // another site or on a host of the sender's own (`links.`, `click.`): its ids (`id=…`, a hash in
  // the path) are no secret, and the destination is read instead.
  const own =
    wrapped === undefined || wrapped.hostname === outer.hostname || (siteOf(wrapped.hostname) === siteOf(outer.hostname) && ownsNamedToken(query))
      ? urlFeatures(outer, query)
      : undefined;
  const inner = own === undefined || own.token === 0 ? wrapped : undefined;
  const f = inner === undefined ? (own ?? urlFeatures(outer, query)) : urlFeatures(inner);
  const anchor = anchorWordsOf(seen.anchor);
  // No token and a token are separate signals, so the model weighs each on its own.
  const sig: Record<string, number> = f.token === 0 ? { base: BASE, no_token: TOKEN_SIGNAL[0] } : { base: BASE, token: TOKEN_SIGNAL[f.token] };
  if (f.kindHint) sig.url_words = 1;
  // No word matches an empty anchor or context (image-only anchors, printed URLs), so neither is scanned.
  const hasAnchor = anchor !== '';
  const anchorWords = hasAnchor && hasKindWords(anchor);
  if (anchorWords) sig.anchor_words = 1;
  else if (hasAnchor && ACTION_RE.test(anchor)) sig.anchor_action = 0.6;
  else if (seen.context !== '' && hasKindWords(seen.context.slice(-80))) sig.context_words = 0.6;
  // 16 digits and more hold as much chance as a token (53 bits) where the words of the anchor or
  // before the link say what it is for ("choose a new password"); elsewhere such a run may be an
  // id (a post's, a message's), and it stays a weak token.
  if (f.longNumber && (anchorWords || sig.context_words !== undefined || (seen.context !== '' && hasKindWords(seen.context.slice(-80))))) sig.token = TOKEN_SIGNAL[2];
  // The role the anchor names, else the words that lead to the link, in the mail's language.
  const role = (hasAnchor ? roleIn(anchor) : undefined) ?? roleIn(seen.lead);
  // Nothing (URL, anchor, text before it) says what the link is for: "View on …", "Go to poll".
  const purpose = sig.url_words ?? sig.anchor_words ?? sig.anchor_action ?? sig.context_words;
  if (purpose === undefined && role !== 'positive') sig.no_purpose = -1;
  if (f.negative || (hasAnchor && NEGATIVE_RE.test(anchor))) sig.footer_link = -5;
  // A positive role counts where no kind word of the anchor or the text before it said it already
  // ("Verify" is both): it speaks for the wording the kind lexicon does not know.
  if (role === 'positive' && sig.anchor_words === undefined && sig.context_words === undefined) sig.role_positive = 1;
  else if (role === 'negative') sig.role_negative = -2;
  if (SOCIAL.test(f.host)) sig.social = -4;
  if (senderSite !== undefined) sig.site = siteOf(f.host) === senderSite ? 0.3 : -0.8;
  if (seen.imageOnly && seen.sources.length === 1) sig.image_only = -1.5;
  if (seen.count >= 2) sig.repeated = 0.4;
  // "Or use this link to sign in:": the second way in, beside a code shown first (a preference signal).
  if (opensAsAlternative(seen.lead)) sig.alternative = -1;
  if (seen.button) sig.button = 0.5;
  if (seen.inFooter) sig.footer = -1.5;
  if (silent) sig.subject_silent = -1;
  // Added up in the order the signals were set, as a reduce over their values would.
  let score = 0;
  for (const k in sig) score += sig[k] ?? 0;
  return { seen, hint: f.kindHint, anchor, anchorWords, score, signals: sig, unwrapped: inner?.href };
};

/**
 * `s` with every run of white space made one space, trimmed: `s.replace(/\s+/g, ' ').trim()`
 * (both treat the same characters as white space) in one pass, copying only around the runs
 * that change. A reported link's snippet is built this way; the pattern's replace cost a
 * tenth of finding and describing the links.
 */
export const oneLine = (s: string): string => {
  let start = 0;
  let end = s.length;
  while (start < end && isTrimmed(s.charCodeAt(start))) start += 1;
  while (end > start && isTrimmed(s.charCodeAt(end - 1))) end -= 1;
  let out = '';
  let from = start;
  for (let i = start; i < end; i += 1) {
    if (!isTrimmed(s.charCodeAt(i))) continue;
    // The run ends before `end`, whose last character is not white space.
    let j = i + 1;
    while (isTrimmed(s.charCodeAt(j))) j += 1;
    // A lone ' ' is already what the run would become.
    if (j - i > 1 || s.charCodeAt(i) !== 32) {
      out += `${s.slice(from, i)} `;
      from = j;
    }
    i = j;
  }
  return from === start ? s.slice(start, end) : out + s.slice(from, end);
};

// Only the best links are ever reported, so only they pay for kind classification.
const REPORTED = 5;

/** Every distinct http(s) link of a message, scored as a possible magic link; best first. */
export const findLinks = (view: MessageView): LinkSighting[] => {
  // The sender's site is the same for every link: worked out once.
  const senderSite = view.senderDomain ? siteOf(view.senderDomain) : undefined;
  const scored: Scored[] = [];
  const links = collect(view);
  // The subject is read only when the message has a link.
  const silent = links.size > 0 && view.subjectSilent();
  for (const seen of links.values()) {
    const s = scoreLink(seen, senderSite, silent);
    if (s !== undefined) scored.push(s);
  }
  scored.sort((a, b) => b.score - a.score);
  let subject: Map<LinkKind, number> | undefined;
  return scored.slice(0, REPORTED).map((l) => ({
    value: l.seen.href,
    score: l.score,
    signals: l.signals,
    sources: l.seen.sources,
    anchorText: l.seen.anchor || undefined,
    unwrapped: l.unwrapped,
    describe: () => ({
      kind: classify(l.hint, l.anchor, l.anchorWords, l.seen.context, () => (subject ??= subjectVotes(view.subject))),
      snippet: `${oneLine(l.seen.context.slice(-80))} [${l.seen.anchor}]`,
    }),
  }));
};
