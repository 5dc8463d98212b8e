/**
 * A variant is one transformation of a family: a pure function of a case and a seeded stream,
 * answering the transformed case (its mail and its expected answer) or undefined when it does not
 * apply to that mail. The edits here are the ones several families share.
 */
import type { Rng } from '../real/random.js';
import { escapeHtml, insertAtBodyEnd, insertAtBodyStart, replaceUrlInHtml } from './html.js';
import { withMail, type Case } from './mail.js';
import type { Purpose, Topic } from './phrases.js';

export interface Variant {
  readonly family: string;
  readonly name: string;
  /** What it does, in a line. */
  readonly does: string;
  /** The transformed case, or undefined when the variant does not apply to this mail. */
  readonly apply: (c: Case, rng: Rng) => Case | undefined;
}

/** The purpose of a case's link, read from its label. */
export const purposeOf = (c: Case): Purpose => {
  const p = c.expect.linkPurpose;
  return p === 'sign_in' || p === 'verify_email' || p === 'password_reset' || p === 'invite' ? p : 'other';
};

/** What the mail is for: a code, a link's purpose, or nothing. */
export const topicOf = (c: Case): Topic | undefined => (c.expect.secret === undefined ? undefined : c.expect.secret.kind === 'otp' ? 'otp' : purposeOf(c));

/** The case with a URL replaced everywhere it is written (hrefs, HTML text, the text part). */
export const replaceUrl = (c: Case, from: string, to: string): Case =>
  withMail(c, { text: c.mail.text?.split(from).join(to), html: c.mail.html === undefined ? undefined : replaceUrlInHtml(c.mail.html, from, to) });

/** A block added to both bodies, at their start or end. */
export const addBlock = (c: Case, block: { readonly html: string; readonly text: string }, at: 'start' | 'end'): Case =>
  withMail(c, {
    text: c.mail.text === undefined ? undefined : at === 'start' ? `${block.text}\n\n${c.mail.text}` : `${c.mail.text.replace(/\s+$/, '')}\n\n${block.text}\n`,
    html: c.mail.html === undefined ? undefined : at === 'start' ? insertAtBodyStart(c.mail.html, block.html) : insertAtBodyEnd(c.mail.html, block.html),
  });

/** HTML with a string replaced only where it is text, never inside a tag. */
export const replaceInHtmlText = (html: string, from: string, to: string): string =>
  html
    .split(/(<[^>]*>)/)
    .map((piece) => (piece.startsWith('<') ? piece : piece.split(escapeHtml(from)).join(to).split(from).join(to)))
    .join('');

/** True when the HTML shows the string as text (not only inside a tag). */
export const inHtmlText = (html: string | undefined, s: string): boolean =>
  html !== undefined && html.split(/(<[^>]*>)/).some((piece) => !piece.startsWith('<') && (piece.includes(s) || piece.includes(escapeHtml(s))));
