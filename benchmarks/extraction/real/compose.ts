import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { decodeEntities } from '@ephemail/core';
import { date, email, hex, host, type Rng } from './random.js';
import type { Rendered, Secret } from './types.js';

/** An RFC 5322 message for a render: the parts the product sends, UTF-8, QP or base64 at random. */
export const composeMessage = async (r: Rendered, product: string, rng: Rng): Promise<Buffer> => {
  const composer = new MailComposer({
    from: { name: r.fromName ?? product, address: `${rng.pick(['no-reply', 'noreply', 'accounts', 'mailer', 'root'])}@${host(rng)}` },
    to: email(rng),
    subject: r.subject,
    ...(r.text !== undefined ? { text: r.text } : {}),
    ...(r.html !== undefined ? { html: r.html } : {}),
    ...(r.attachments !== undefined ? { attachments: r.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })) } : {}),
    date: date(rng),
    messageId: `<${rng.int(1e8, 9e8)}.${rng.int(1e5, 9e5)}@${host(rng)}>`,
    textEncoding: rng.pick(['quoted-printable', 'base64'] as const),
    // A seeded boundary, so that a rebuild writes the same bytes.
    baseBoundary: hex(rng, 16),
    ...(rng.chance(0.3) ? { headers: { 'Content-Language': r.lang, 'Auto-Submitted': 'auto-generated' } } : {}),
  });
  return composer.compile().build();
};

/** True when the secret's value occurs in the text part or in the HTML part with its entities decoded. */
export const secretShown = (r: Rendered, s: Secret): boolean =>
  (r.text ?? '').includes(s.value) || decodeEntities(r.html ?? '').includes(s.value);

/** The label line of a render, in the shared corpus's schema plus product and template. */
export const labelOf = (r: Rendered, product: string, file: string) => ({
  file,
  source: r.source,
  lang: r.lang,
  kind: r.secret?.kind ?? 'none',
  value: r.secret?.value ?? null,
  link_purpose: r.secret?.kind === 'magic_link' ? (r.secret.link_purpose ?? 'other') : null,
  product,
  template: r.template,
  notes: '',
  ...(r.also !== undefined && r.also.length > 0 ? { also: r.also.map((a) => ({ kind: a.kind, value: a.value, ...(a.kind === 'magic_link' ? { link_purpose: a.link_purpose ?? 'other' } : {}) })) } : {}),
});
