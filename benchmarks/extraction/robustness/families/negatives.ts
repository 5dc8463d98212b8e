/**
 * Negatives: a positive turned into mail with no secret, which the engine must not answer at 0.5.
 * The secret removed (a code deleted or masked, its links pointed at the site's front page);
 * the body replaced by a "your password was changed" notice; the secret removed and a list of
 * backup codes, a coupon code or an order and tracking number added under a neutral subject.
 */
import type { Rng } from '../../real/random.js';
import { alnum, digits, hex } from '../../real/random.js';
import { escapeHtml, mapAnchors, replaceInBodies, textToHtml, withHref } from '../html.js';
import { secretsOf, withMail, type Case, type Secret } from '../mail.js';
import { NOTICES } from '../notices.js';
import { fill, langOf, SUBJECTS } from '../phrases.js';
import { splitUrl, tokenPlace } from '../url.js';
import { addBlock, type Variant } from '../variant.js';

const NONE = { secret: undefined, alternatives: [], also: [], linkPurpose: null };

/** What a secret is known by: a code itself, a link's token (the whole link when it has none). */
const tokenOf = (s: Secret): string => {
  if (s.kind === 'otp') return s.value;
  const parts = splitUrl(s.value);
  return (parts === undefined ? undefined : tokenPlace(parts)?.value) ?? s.value;
};

const URL_IN_TEXT = /https?:\/\/[^\s<>"'\]]+/g;

/** The case without one secret: links holding it go to the front page, the rest of it becomes `rest`. */
const strip = (c: Case, s: Secret, rest: (token: string) => string): Case => {
  const token = tokenOf(s);
  const front = `https://${c.site.host}/`;
  const holds = (u: string): boolean => u.includes(token) || u === s.value;
  const anchorsOff = c.mail.html === undefined ? undefined : mapAnchors(c.mail.html, (a) => (a.href !== undefined && holds(a.href) ? `<a${withHref(a.attrs, front)}>${a.inner}</a>` : undefined));
  const html = anchorsOff?.replace(URL_IN_TEXT, (u) => (holds(u.replace(/&amp;/g, '&')) ? front : u));
  const text = c.mail.text?.replace(URL_IN_TEXT, (u) => (holds(u) ? front : u));
  const bodies = replaceInBodies({ text, html }, token, rest(token));
  return withMail(c, { ...bodies, subject: c.mail.subject?.split(token).join(rest(token)) });
};

/** The case with every secret of its label stripped, expecting no answer. */
const stripAll = (c: Case, rest: (token: string) => string): Case | undefined => {
  const secrets = secretsOf(c.expect);
  if (secrets.length === 0) return undefined;
  const out = secrets.reduce((acc, s) => strip(acc, s, rest), c);
  return { ...out, expect: NONE, gone: secrets.flatMap((s) => [s.value, tokenOf(s), tokenOf(s).replace(/[\s-]+/g, '')]) };
};

/** A code drawn in the shape of another: digits for digits, letters for letters, separators kept. */
const sameShape = (shape: string, rng: Rng): string =>
  [...shape].map((ch) => (/\d/.test(ch) ? digits(rng, 1) : /[A-Z]/.test(ch) ? alnum(rng, 1).toUpperCase().replace(/\d/, 'K') : /[a-z]/.test(ch) ? alnum(rng, 1).toLowerCase().replace(/\d/, 'k') : ch)).join('');

const backupCodes = (c: Case, rng: Rng): string[] => {
  const code = c.expect.secret?.kind === 'otp' ? c.expect.secret.value : undefined;
  return Array.from({ length: 10 }, () => (code !== undefined && code.length >= 6 ? sameShape(code, rng) : `${hex(rng, 4)}-${hex(rng, 4)}`));
};

const neutralSubject = (c: Case): string => fill(SUBJECTS[langOf(c.lang)].neutral, { site: c.site.name });

const added = (name: string, does: string, block: (c: Case, rng: Rng) => { html: string; text: string }): Variant => ({
  family: 'negatives',
  name,
  does,
  apply: (c, rng) => {
    const out = stripAll(c, () => '');
    return out === undefined ? undefined : withMail(addBlock(out, block(c, rng), 'start'), { subject: neutralSubject(c) });
  },
});

const passwordChanged = (c: Case, rng: Rng): Case | undefined => {
  const gone = stripAll(c, () => '');
  if (gone === undefined) return undefined;
  const n = NOTICES[langOf(c.lang)];
  const when = new Date(Date.UTC(2024, 0, 1) + rng.int(0, 730 * 86400) * 1000).toISOString().slice(0, 16).replace('T', ' ');
  const activity = `https://${c.site.host}/account/security/activity`;
  const text = `${fill(n.changed, { site: c.site.name, date: `${when} UTC` })}\n\n${n.ifNotYou}\n\n${n.review}: ${activity}\n\nhttps://${c.site.host}/password/forgot\n`;
  return { ...gone, mail: { ...gone.mail, subject: n.changedSubject, text: c.mail.text === undefined ? undefined : text, html: c.mail.html === undefined && c.mail.text !== undefined ? undefined : textToHtml(text) } };
};

export const NEGATIVES: readonly Variant[] = [
  { family: 'negatives', name: 'secret removed', does: 'the code deleted, links holding the secret pointed at the front page', apply: (c) => stripAll(c, () => '') },
  { family: 'negatives', name: 'secret masked', does: 'the code replaced by bullets, links holding the secret pointed at the front page', apply: (c) => stripAll(c, (t) => '•'.repeat(Math.min(8, t.length))) },
  { family: 'negatives', name: 'password changed', does: 'the body replaced by a "your password was changed" notice in the mail\'s language, with two links without tokens', apply: passwordChanged },
  added('backup codes', 'secret removed, a list of ten backup codes (in the code\'s own shape) added, neutral subject', (c, rng) => {
    const codes = backupCodes(c, rng);
    const intro = NOTICES[langOf(c.lang)].backupCodes;
    return { html: `<p>${escapeHtml(intro)}</p><ul style="font-family:monospace;font-size:16px">${codes.map((k) => `<li>${k}</li>`).join('')}</ul>`, text: `${intro}\n\n${codes.map((k) => `    ${k}`).join('\n')}` };
  }),
  added('coupon', 'secret removed, a coupon code added, neutral subject', (c, rng) => {
    const line = fill(NOTICES[langOf(c.lang)].coupon, { code: `${rng.pick(['SPRING', 'WELCOME', 'SAVE', 'VIP'])}${rng.int(10, 40)}${alnum(rng, 3).toUpperCase()}` });
    return { html: `<p style="font-size:18px;font-weight:700">${escapeHtml(line)}</p>`, text: line };
  }),
  added('order number', 'secret removed, an order number and a parcel tracking number added, neutral subject', (c, rng) => {
    const line = fill(NOTICES[langOf(c.lang)].order, { order: `#${digits(rng, rng.int(7, 10))}`, tracking: `${rng.pick(['JD', '1Z', 'LX'])}${digits(rng, rng.int(10, 16))}` });
    return { html: `<p>${escapeHtml(line)}</p>`, text: line };
  }),
];
