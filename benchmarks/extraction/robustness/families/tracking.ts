/**
 * Tracking: every link of the mail behind a click-tracking redirector, as sending services
 * rewrite them: the destination URL-encoded in a parameter or in the path, base64url-encoded, or
 * replaced by an opaque id; in the HTML only, or in the text part too. The expected answer is the
 * wrapped secret link (what the reader clicks); its destination counts as the same answer.
 */
import type { Rng } from '../../real/random.js';
import { base64url, hex } from '../../real/random.js';
import { mapAnchors, withHref } from '../html.js';
import { withExpect, withMail, type Case } from '../mail.js';
import type { Variant } from '../variant.js';

type Wrapper = (url: string, rng: Rng) => string;

const WRAPPERS: Record<string, Wrapper> = {
  'query-encoded': (url, rng) => `https://links.${rng.pick(['example.net', 'example.com'])}/ls/click?u=${encodeURIComponent(url)}&id=${hex(rng, 16)}`,
  'path-encoded': (url, rng) => `https://t.example.net/CL0/${encodeURIComponent(url)}/1/${hex(rng, 32)}-${hex(rng, 8)}/${rng.int(100, 999)}`,
  base64url: (url, rng) => `https://click.example.org/r/${rng.int(1, 9)}?d=${Buffer.from(url).toString('base64url')}&s=${hex(rng, 12)}`,
  opaque: (_url, rng) => `https://email.example.com/c/${base64url(rng, rng.int(24, 48))}`,
};

const URL_IN_TEXT = /https?:\/\/[^\s<>"'\]]+/g;

/** Every link of the mail (hrefs and URLs written in the text part), each mapped to its wrapper. */
const wrapAll = (c: Case, wrap: Wrapper, rng: Rng, inText: boolean): { mapped: Map<string, string>; case: Case } => {
  const mapped = new Map<string, string>();
  const wrapped = (url: string): string => {
    const known = mapped.get(url);
    if (known !== undefined) return known;
    const w = wrap(url, rng);
    mapped.set(url, w);
    return w;
  };
  const secret = c.expect.secret;
  if (secret?.kind === 'magic_link') wrapped(secret.value);
  const html = c.mail.html === undefined ? undefined : mapAnchors(c.mail.html, (a) => (a.href !== undefined && /^https?:/i.test(a.href) ? `<a${withHref(a.attrs, wrapped(a.href))}>${a.inner}</a>` : undefined));
  // The text part's URLs: the known links first (longest first), so a URL is never cut short.
  let text = c.mail.text;
  if (inText && text !== undefined) {
    for (const m of text.matchAll(URL_IN_TEXT)) wrapped(m[0].replace(/[.,;:!?)]+$/, ''));
    const urls = [...mapped.keys()].sort((a, b) => b.length - a.length);
    const escaped = urls.map((u) => u.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    if (escaped.length > 0) text = text.replace(new RegExp(escaped.join('|'), 'g'), (u) => mapped.get(u) ?? u);
  }
  return { mapped, case: withMail(c, { html, text }) };
};

const tracked = (kind: string, inText: boolean): Variant => ({
  family: 'tracking',
  name: `${kind}${inText ? '' : ', html only'}`,
  does: `every link behind a ${kind} click-tracking redirector${inText ? ', in the HTML and the text part' : ' in the HTML; the text part keeps the bare links'}`,
  apply: (c, rng) => {
    const wrap = WRAPPERS[kind];
    if (wrap === undefined) return undefined;
    const { mapped, case: out } = wrapAll(c, wrap, rng, inText);
    const secret = c.expect.secret;
    if (secret?.kind !== 'magic_link') return mapped.size === 0 ? undefined : out;
    const value = mapped.get(secret.value) ?? secret.value;
    return withExpect(out, { secret: { kind: 'magic_link', value }, alternatives: [secret.value] });
  },
});

export const TRACKING: readonly Variant[] = [tracked('query-encoded', true), tracked('path-encoded', true), tracked('base64url', true), tracked('opaque', true), tracked('query-encoded', false)];
