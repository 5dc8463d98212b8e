/**
 * Token: the secret link's token moved between the path, the query (under any parameter name) and
 * the fragment, and re-spelled in other alphabets and lengths (hex, digits, base64url, JWT; 8 to
 * 128 characters). The expected answer becomes the rewritten link, wherever the old one was written.
 */
import type { Rng } from '../../real/random.js';
import { base64url, digits, hex, jwtLike } from '../../real/random.js';
import { withExpect, type Case } from '../mail.js';
import { joinUrl, splitUrl, tokenPlace, withoutToken, withTokenValue, type TokenPlace, type UrlParts } from '../url.js';
import { replaceUrl, type Variant } from '../variant.js';

const NAMES = ['token', 't', 'key', 'k', 'code', 'auth', 'sig', 'signature', 'v', 'verify', 'hash', 'h', 'x', 'p', 'q', 'id', 'nonce', 'ticket', 'c', 'z9'];

/** The case with its secret link rewritten by `f`, when the link has a token to move. */
const rewrite = (c: Case, f: (p: UrlParts, t: TokenPlace) => UrlParts | undefined, respelled: boolean): Case | undefined => {
  const secret = c.expect.secret;
  if (secret?.kind !== 'magic_link') return undefined;
  const parts = splitUrl(secret.value);
  const token = parts === undefined ? undefined : tokenPlace(parts);
  const next = parts === undefined || token === undefined ? undefined : f(parts, token);
  if (next === undefined) return undefined;
  const url = joinUrl(next);
  if (url === secret.value || token === undefined) return undefined;
  const moved = withExpect(replaceUrl(c, secret.value, url), { secret: { kind: 'magic_link', value: url } });
  return { ...moved, gone: [secret.value, ...(respelled ? [token.value] : [])] };
};

const toPath = (p: UrlParts, t: TokenPlace): UrlParts | undefined => {
  if (t.where === 'path') return undefined;
  const rest = withoutToken(p, t);
  return { ...rest, path: `${rest.path.replace(/\/+$/, '')}/${t.value}` };
};

const toQuery = (p: UrlParts, t: TokenPlace, rng: Rng): UrlParts | undefined => {
  const rest = withoutToken(p, t);
  const name = rng.pick(NAMES.filter((n) => t.where !== 'query' || n !== t.name));
  const pair = `${name}=${t.value}`;
  const query = rest.query === undefined ? pair : rng.chance(0.5) ? `${pair}&${rest.query}` : `${rest.query}&${pair}`;
  return { ...rest, query };
};

const toFragment = (p: UrlParts, t: TokenPlace, rng: Rng): UrlParts | undefined => {
  if (t.where === 'fragment') return undefined;
  const rest = withoutToken(p, t);
  return { ...rest, fragment: rng.chance(0.5) ? `token=${t.value}` : `/${rng.pick(['confirm', 'verify', 'login', 'reset'])}/${t.value}` };
};

/** A new token of a spelling, 8 to 128 characters long. */
const SPELLINGS: Record<string, (rng: Rng) => string> = {
  hex: (rng) => hex(rng, rng.int(8, 128)),
  digits: (rng) => digits(rng, rng.int(8, 128)),
  base64url: (rng) => base64url(rng, rng.int(6, 96)),
  jwt: (rng) => jwtLike(rng),
};

const move = (name: string, does: string, f: (p: UrlParts, t: TokenPlace, rng: Rng) => UrlParts | undefined, respelled = false): Variant => ({
  family: 'token',
  name,
  does,
  apply: (c, rng) => rewrite(c, (p, t) => f(p, t, rng), respelled),
});

export const TOKEN: readonly Variant[] = [
  move('to path', 'the token moved into the last path segment', (p, t) => toPath(p, t)),
  move('to query', 'the token moved to a query parameter of any name, first or last', toQuery),
  move('to fragment', 'the token moved into the fragment (#token=… or #/route/…)', toFragment),
  ...Object.entries(SPELLINGS).map(([spelling, draw]) =>
    move(`as ${spelling}`, `the token re-spelled as ${spelling}${spelling === 'jwt' ? '' : ' of 8 to 128 characters'}, in place`, (p, t, rng) => withTokenValue(p, t, draw(rng)), true),
  ),
];
