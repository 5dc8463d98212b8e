/**
 * Footers: what senders put under a mail — links to the site, help, privacy and terms, an
 * unsubscribe and a preferences link carrying their own tokens, social-network icons, a postal
 * address with numbers, phone numbers, registration numbers, dates — added to every mail. The
 * answer stays the mail's own.
 */
import { alnum, digits, hex, type Rng } from '../../real/random.js';
import { escapeHtml } from '../html.js';
import type { Case } from '../mail.js';
import { addBlock, type Variant } from '../variant.js';

interface Piece {
  readonly html: string;
  readonly text: string;
}

const link = (href: string, label: string): Piece => ({ html: `<a href="${escapeHtml(href)}" style="color:#888888">${escapeHtml(label)}</a>`, text: `${label}: ${href}` });

const siteLinks = (c: Case, rng: Rng): Piece[] => {
  const base = `https://${c.site.host}`;
  return [
    link(`${base}/`, c.site.name),
    link(`${base}/help/articles/${digits(rng, rng.int(5, 9))}`, 'Help Center'),
    link(`${base}/legal/privacy`, 'Privacy'),
    link(`${base}/legal/terms`, 'Terms'),
    link(`${base}/email/preferences?u=${hex(rng, 24)}`, 'Manage email preferences'),
    link(`${base}/unsubscribe/${alnum(rng, rng.int(24, 48))}?list=${rng.pick(['account', 'security', 'news'])}`, 'Unsubscribe'),
  ];
};

const SOCIAL = [
  ['facebook', 'https://www.facebook.com/'],
  ['x', 'https://x.com/'],
  ['linkedin', 'https://www.linkedin.com/company/'],
  ['instagram', 'https://www.instagram.com/'],
  ['youtube', 'https://www.youtube.com/@'],
] as const;

const social = (c: Case): Piece[] => {
  const handle = c.site.name.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'site';
  return SOCIAL.map(([name, prefix]) => ({
    html: `<a href="${prefix}${handle}"><img src="https://${c.site.host}/static/social/${name}.png" alt="${name}" width="24" height="24" style="border:0"></a>`,
    text: `${name}: ${prefix}${handle}`,
  }));
};

const phone = (rng: Rng): string =>
  rng.pick([
    () => `+1 (${rng.int(201, 989)}) 555-${digits(rng, 4)}`,
    () => `+49 30 ${digits(rng, 7)}`,
    () => `+44 20 ${digits(rng, 4)} ${digits(rng, 4)}`,
    () => `0800 ${digits(rng, 3)} ${digits(rng, 3)}`,
    () => `+33 1 ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)} ${digits(rng, 2)}`,
  ])();

const address = (c: Case, rng: Rng): Piece[] => {
  const lines = [
    `${c.site.name} Inc., ${rng.int(1, 9999)} ${rng.pick(['Market Street', 'Harbour Road', 'Hauptstraße', 'Rue de Rivoli'])}, Suite ${rng.int(100, 2999)}`,
    `${rng.pick(['San Francisco, CA', 'Berlin', 'London', 'Paris'])} ${digits(rng, 5)}`,
    `Phone ${phone(rng)} · Fax ${phone(rng)}`,
    `Company no. ${digits(rng, 8)} · VAT ${rng.pick(['DE', 'GB', 'FR'])}${digits(rng, 9)}`,
  ];
  return lines.map((l) => ({ html: escapeHtml(l), text: l }));
};

const dates = (rng: Rng): Piece[] => {
  const d = new Date(Date.UTC(2024, 0, 1) + rng.int(0, 730 * 86400) * 1000);
  const iso = d.toISOString();
  const lines = [`Sent on ${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC`, `© ${d.getUTCFullYear()} All rights reserved.`, `Message ${iso.slice(0, 10).replace(/-/g, '')}${digits(rng, 6)}`];
  return lines.map((l) => ({ html: escapeHtml(l), text: l }));
};

const block = (pieces: readonly Piece[], inline: boolean): Piece => ({
  html: `<table role="presentation" width="100%" style="margin-top:32px;border-top:1px solid #eeeeee"><tr><td style="padding:16px;font-size:12px;color:#888888;text-align:center">${pieces.map((p) => p.html).join(inline ? ' · ' : '<br>')}</td></tr></table>`,
  text: pieces.map((p) => p.text).join('\n'),
});

const footer = (name: string, does: string, make: (c: Case, rng: Rng) => readonly Piece[][]): Variant => ({
  family: 'footers',
  name,
  does,
  apply: (c, rng) => {
    const groups = make(c, rng);
    const html = groups.map((g) => block(g, g.length > 4).html).join('');
    const text = groups.map((g) => block(g, false).text).join('\n\n');
    return addBlock(c, { html, text }, 'end');
  },
});

export const FOOTERS: readonly Variant[] = [
  footer('site links', 'site, help, privacy, terms; preferences and unsubscribe links with their own tokens', (c, rng) => [siteLinks(c, rng)]),
  footer('social', 'social-network icons (image-only anchors)', (c) => [social(c)]),
  footer('address and phones', 'postal address with house and suite numbers, postcode, phone and fax numbers, company and VAT numbers', (c, rng) => [address(c, rng)]),
  footer('dates', 'sent date and time, copyright year, a dated message number', (_c, rng) => [dates(rng)]),
  footer('everything', 'all of the above', (c, rng) => [siteLinks(c, rng), social(c), address(c, rng), dates(rng)]),
];
