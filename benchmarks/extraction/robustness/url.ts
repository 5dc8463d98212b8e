/**
 * A link split into its parts as written (no normalisation, so rebuilding it changes nothing else),
 * and the place of its token: the longest random-looking path segment, parameter value or
 * fragment piece.
 */

export interface UrlParts {
  readonly origin: string;
  readonly path: string;
  /** Without the `?`; undefined when there is none. */
  readonly query: string | undefined;
  /** Without the `#`; undefined when there is none. */
  readonly fragment: string | undefined;
}

const PARTS = /^(https?:\/\/[^/?#\s]*)([^?#\s]*)(?:\?([^#\s]*))?(?:#(\S*))?$/i;

export const splitUrl = (url: string): UrlParts | undefined => {
  const m = PARTS.exec(url);
  return m === null ? undefined : { origin: m[1] ?? '', path: m[2] ?? '', query: m[3], fragment: m[4] };
};

export const joinUrl = (p: UrlParts): string => `${p.origin}${p.path}${p.query === undefined ? '' : `?${p.query}`}${p.fragment === undefined ? '' : `#${p.fragment}`}`;

/** Where a link's token is. */
export type TokenPlace =
  | { readonly where: 'path'; readonly index: number; readonly value: string }
  | { readonly where: 'query'; readonly index: number; readonly name: string; readonly value: string }
  | { readonly where: 'fragment'; readonly value: string };

/** True for a value that looks drawn at random: long enough, mixed, not a word, a date or a URL. */
export const randomLooking = (v: string): boolean => {
  const bare = v.replace(/(?:%3D|=)+$/i, '');
  if (bare.length < 8 || !/^[A-Za-z0-9._~+-]+$/.test(bare)) return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(bare) || /^[a-z]+(?:[-_.][a-z]+)*$/.test(bare)) return false;
  const classes = [/\d/, /[a-z]/, /[A-Z]/].filter((r) => r.test(bare)).length;
  return classes >= 2 || bare.length >= 16;
};

const pairs = (query: string): { name: string; value: string }[] =>
  query.split('&').map((kv) => {
    const eq = kv.indexOf('=');
    return eq < 0 ? { name: kv, value: '' } : { name: kv.slice(0, eq), value: kv.slice(eq + 1) };
  });

/** The token of a link, when it has one. */
export const tokenPlace = (p: UrlParts): TokenPlace | undefined => {
  const found: TokenPlace[] = [];
  p.path.split('/').forEach((seg, index) => {
    if (randomLooking(seg)) found.push({ where: 'path', index, value: seg });
  });
  pairs(p.query ?? '').forEach(({ name, value }, index) => {
    if (randomLooking(value)) found.push({ where: 'query', index, name, value });
  });
  for (const piece of (p.fragment ?? '').split(/[/?&=]/)) if (randomLooking(piece)) found.push({ where: 'fragment', value: piece });
  return found.sort((a, b) => b.value.length - a.value.length)[0];
};

/** The link without its token, and the token: what a move puts elsewhere. */
export const withoutToken = (p: UrlParts, t: TokenPlace): UrlParts => {
  if (t.where === 'path') return { ...p, path: p.path.split('/').filter((_, i) => i !== t.index).join('/') || '/' };
  if (t.where === 'query') {
    const rest = (p.query ?? '').split('&').filter((_, i) => i !== t.index);
    return { ...p, query: rest.length === 0 ? undefined : rest.join('&') };
  }
  return { ...p, fragment: undefined };
};

/** The link with its token replaced by another value, in the same place. */
export const withTokenValue = (p: UrlParts, t: TokenPlace, value: string): UrlParts => {
  if (t.where === 'path') return { ...p, path: p.path.split('/').map((s, i) => (i === t.index ? value : s)).join('/') };
  if (t.where === 'query') return { ...p, query: (p.query ?? '').split('&').map((kv, i) => (i === t.index ? `${t.name}=${value}` : kv)).join('&') };
  return { ...p, fragment: (p.fragment ?? '').split(t.value).join(value) };
};

/** The origin of a link (scheme and host). */
export const originOf = (url: string): string | undefined => splitUrl(url)?.origin;
