import { createHash } from 'node:crypto';

/** A seeded generator: every render draws from its own stream, so a rebuild gives the same bytes. */
export interface Rng {
  /** A float in [0, 1). */
  readonly next: () => number;
  readonly int: (min: number, max: number) => number;
  readonly pick: <T>(xs: readonly T[]) => T;
  readonly chance: (p: number) => boolean;
  /** `n` characters drawn from `alphabet`. */
  readonly chars: (alphabet: string, n: number) => string;
}

const DIGITS = '0123456789';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const URLSAFE = `${ALNUM}-_`;

/** mulberry32 over a 32-bit seed taken from the SHA-256 of `seed`. */
export const rngFor = (seed: string): Rng => {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const chars = (alphabet: string, n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  return { next, int, pick, chance: (p) => next() < p, chars };
};

export const digits = (r: Rng, n: number): string => r.chars(DIGITS, n);
export const alnum = (r: Rng, n: number): string => r.chars(ALNUM, n);
export const hex = (r: Rng, n: number): string => r.chars(HEX, n);
export const urlsafe = (r: Rng, n: number): string => r.chars(URLSAFE, n);
export const base64url = (r: Rng, bytes: number): string => Buffer.from(Array.from({ length: bytes }, () => r.int(0, 255))).toString('base64url');
export const uuid = (r: Rng): string => `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-${r.pick(['8', '9', 'a', 'b'])}${hex(r, 3)}-${hex(r, 12)}`;
/** A JWT-shaped token (three base64url parts; the first one a real JWT header). */
export const jwtLike = (r: Rng): string =>
  `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${base64url(r, r.int(60, 120))}.${base64url(r, 32)}`;

const FIRST = ['Anna', 'Ben', 'Chloé', 'Dmitri', 'Elif', 'Farid', 'Grace', 'Hiro', 'Inès', 'Jonas', 'Kasia', 'Liam', 'Mei', 'Noah', 'Olga', 'Priya', 'Rafael', 'Sofia', 'Tomás', 'Yuki'];
const LAST = ['Andersen', 'Becker', 'Costa', 'Dubois', 'Eriksson', 'Fischer', 'García', 'Horvath', 'Ivanova', 'Jensen', 'Kowalski', 'Lopez', 'Müller', 'Nakamura', 'Okafor', 'Petrov', 'Rossi', 'Silva', 'Tanaka', 'Weber'];
const SITES = ['Acme Tools', 'Bluebird Books', 'Cobalt Labs', 'Delta Rowing Club', 'Evergreen Co-op', 'Fjord Analytics', 'Granite Forum', 'Harbor Health'];
const TLDS = ['example.com', 'example.org', 'example.net'];

export const person = (r: Rng): { first: string; last: string; full: string; username: string } => {
  const first = r.pick(FIRST);
  const last = r.pick(LAST);
  const username = `${first}.${last}`.normalize('NFD').replace(/[^A-Za-z.]/g, '').toLowerCase() + (r.chance(0.4) ? String(r.int(1, 99)) : '');
  return { first, last, full: `${first} ${last}`, username };
};
export const siteName = (r: Rng): string => r.pick(SITES);
/** A host under an example domain, such as `app.cobalt.example.org`. */
export const host = (r: Rng, name = siteName(r)): string =>
  `${r.pick(['', 'app.', 'www.', 'accounts.', 'portal.', 'mail.'])}${name.split(' ')[0]?.toLowerCase().replace(/[^a-z]/g, '') ?? 'site'}.${r.pick(TLDS)}`;
export const email = (r: Rng, local = person(r).username): string => `${local}@${r.pick(['inbox.test', 'mail.example.net', 'example.org'])}`;
export const ipv4 = (r: Rng): string => `${r.pick([10, 172, 192, 198, 203])}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`;
/** A date in 2024–2025 with a random offset, as a Date. */
export const date = (r: Rng): Date => new Date(Date.UTC(2024, 0, 1) + r.int(0, 730 * 24 * 3600) * 1000);
export const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
export const hhmm = (d: Date): string => d.toISOString().slice(11, 16);
