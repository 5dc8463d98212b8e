/**
 * Decoy links: a second link carrying the same token (or, in a code mail, the code) with the
 * opposite role — cancel the request, report it, "this wasn't me" — introduced in the mail's
 * language with emphasis markup, before or after the rest of the mail. The answer stays the
 * mail's own secret.
 */
import type { Rng } from '../../real/random.js';
import { escapeHtml } from '../html.js';
import type { Case } from '../mail.js';
import { DENIALS, langOf } from '../phrases.js';
import { joinUrl, splitUrl, tokenPlace } from '../url.js';
import { addBlock, type Variant } from '../variant.js';

type Role = 'cancel' | 'report' | 'notMe';
const PATHS: Record<Role, readonly string[]> = { cancel: ['cancel', 'deny', 'abort'], report: ['report', 'report-abuse', 'flag'], notMe: ['not-me', 'revoke', 'deny-request'] };

/** The opposite link: the secret's link with its action word swapped, or a link holding the code. */
export const oppositeLink = (c: Case, role: Role, rng: Rng): string | undefined => {
  const secret = c.expect.secret;
  const word = rng.pick(PATHS[role]);
  if (secret === undefined) return undefined;
  if (secret.kind === 'otp') return `https://${c.site.host}/account/${word}?code=${encodeURIComponent(secret.value)}`;
  const parts = splitUrl(secret.value);
  const token = parts === undefined ? undefined : tokenPlace(parts);
  if (parts === undefined || token === undefined) return undefined;
  if (token.where === 'fragment') return `${parts.origin}/${word}?token=${token.value}`;
  const segments = parts.path.split('/');
  const tokenAt = token.where === 'path' ? token.index : segments.length;
  // The last segment before the token names the action; it becomes the opposite one.
  let action = -1;
  for (let i = tokenAt - 1; i >= 1 && action < 0; i -= 1) if (segments[i] !== '') action = i;
  if (action < 0) segments.splice(Math.max(1, tokenAt), 0, word);
  else segments[action] = word;
  return joinUrl({ ...parts, path: segments.join('/'), fragment: undefined });
};

type Emphasis = 'strong' | 'b' | 'em' | 'span';
const open = (e: Emphasis): string => (e === 'span' ? '<span style="font-weight:700">' : `<${e}>`);
const close = (e: Emphasis): string => (e === 'span' ? '</span>' : `</${e}>`);

const decoy = (name: string, role: Role, at: 'start' | 'end', emphasis: Emphasis, asButton: boolean): Variant => ({
  family: 'decoy links',
  name,
  does: `a link with the same token and the "${role}" role ${at === 'start' ? 'before' : 'after'} the mail, introduced in <${emphasis}>${asButton ? ', styled as a button' : ''}`,
  apply: (c, rng) => {
    const href = oppositeLink(c, role, rng);
    if (href === undefined) return undefined;
    const words = DENIALS[langOf(c.lang)];
    const style = asButton ? ' style="display:inline-block;padding:10px 20px;background:#d93025;color:#ffffff;border-radius:4px;text-decoration:none"' : '';
    const html = `<p style="margin:16px 0">${open(emphasis)}${escapeHtml(words.intro)}${close(emphasis)} <a href="${escapeHtml(href)}"${style}>${escapeHtml(words[role])}</a></p>`;
    return addBlock(c, { html, text: `*${words.intro}* ${words[role]}: ${href}` }, at);
  },
});

export const DECOY_LINKS: readonly Variant[] = [
  decoy('cancel before', 'cancel', 'start', 'strong', false),
  decoy('cancel after', 'cancel', 'end', 'strong', false),
  decoy('report before', 'report', 'start', 'em', false),
  decoy('not me after, button', 'notMe', 'end', 'span', true),
  decoy('not me before, button', 'notMe', 'start', 'b', true),
];
