/**
 * Soft breaks: quoted-printable lines broken inside the secret, as a mailer breaks them wherever
 * the 76th character falls: somewhere inside the link or the code, right after each `=3D` of a
 * link's parameters, every 20 characters everywhere, and with bare LF line endings. The decoded
 * text is the same, so the answer is.
 */
import { escapeHtml } from '../html.js';
import { secretsOf, withMail, type Case, type Encoding } from '../mail.js';
import type { Variant } from '../variant.js';

/** Every spelling of the mail's secrets the bodies hold: raw, and escaped as HTML writes it. */
const needles = (c: Case): string[] => [...new Set(secretsOf(c.expect).flatMap((s) => [s.value, escapeHtml(s.value)]))];

const breaking = (name: string, does: string, kind: 'otp' | 'magic_link' | 'any', encoding: (c: Case) => Partial<Encoding>): Variant => ({
  family: 'soft breaks',
  name,
  does,
  apply: (c) => {
    const secret = c.expect.secret;
    if (kind !== 'any' && secret?.kind !== kind) return undefined;
    return withMail(c, { encoding: { charset: 'utf-8', transfer: 'quoted-printable', ...encoding(c) } });
  },
});

export const SOFT_BREAKS: readonly Variant[] = [
  breaking('inside the link', 'a soft break at a random place inside every occurrence of the link', 'magic_link', (c) => ({ breakInside: needles(c), breakAt: 'random' })),
  breaking("after the link's =", 'a soft break right after every = of the link (=3D=, then the value)', 'magic_link', (c) => ({ breakInside: needles(c), breakAt: 'after-equals' })),
  breaking('inside the code', 'a soft break at a random place inside every occurrence of the code', 'otp', (c) => ({ breakInside: needles(c), breakAt: 'random' })),
  breaking('20-column lines', 'quoted-printable lines of 20 characters: breaks everywhere', 'any', () => ({ lineLength: 20 })),
  breaking('bare LF', 'LF line endings throughout, soft breaks (=LF) inside every secret', 'any', (c) => ({ eol: '\n', breakInside: needles(c), breakAt: 'random' })),
];
