/**
 * Reaction Commerce (npm `@reactioncommerce/api-plugin-email-templates`, with the senders of
 * `@reactioncommerce/api-plugin-accounts`): the account mails' default templates and subjects as
 * `src/templates/index.js` seeds them, compiled with Handlebars as `renderEmail` does, with the
 * data each sender builds (`sendVerificationEmail`, `sendWelcomeEmail`,
 * `sendResetAccountPasswordEmail`, `inviteShopMember`): shop name, contact address, legal name
 * and postal address as decoys. Links carry the identity plugin's token (a `Random.secret()`, 43
 * URL-safe characters) in place of `TOKEN`: `confirmationUrl`, `verificationUrl` (verify_email),
 * `passwordResetUrl` (password_reset). The invitation links to the admin's fixed registration page,
 * which holds no secret (label none). English only.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Handlebars from 'handlebars';
import { repsOf } from '../locales.js';
import { email, host, person, siteName, urlsafe, type Rng } from '../random.js';
import type { Adapter, LinkPurpose, Rendered } from '../types.js';

interface Seed { readonly name: string; readonly subject: string; readonly template: string; readonly language: string }

const SENDERS: Readonly<Record<string, { readonly key?: string; readonly purpose?: LinkPurpose; readonly path?: string; readonly sender: string }>> = {
  'accounts/verifyEmail': { key: 'confirmationUrl', purpose: 'verify_email', path: '/verify-email/', sender: 'src/util/sendVerificationEmail.js' },
  'accounts/verifyUpdatedEmail': { key: 'confirmationUrl', purpose: 'verify_email', path: '/verify-email/', sender: 'src/util/sendVerificationEmail.js' },
  'accounts/sendWelcomeEmail': { key: 'verificationUrl', purpose: 'verify_email', path: '/verify-email/', sender: 'src/util/sendWelcomeEmail.js' },
  'accounts/resetPassword': { key: 'passwordResetUrl', purpose: 'password_reset', path: '/account/reset-password/', sender: 'src/mutations/sendResetAccountPasswordEmail.js' },
  'accounts/inviteNewShopMember': { sender: 'src/mutations/inviteShopMember.js' },
};

const shopData = (r: Rng, shopName: string, domain: string): Record<string, unknown> => ({
  contactEmail: `${r.pick(['support', 'hello', 'shop'])}@${domain}`,
  homepage: `https://${domain}/`,
  copyrightDate: String(r.int(2020, 2025)),
  legalName: r.chance(0.8) ? `${shopName} ${r.pick(['GmbH', 'LLC', 'Ltd.', 'S.A.'])}` : undefined,
  physicalAddress: { address: `${r.int(1, 999)} ${r.pick(['Market Street', 'Hauptstraße', 'Rue de Rivoli'])} ${r.chance(0.5) ? `Suite ${r.int(100, 999)}` : ''}`, city: r.pick(['Portland', 'Berlin', 'Lyon']), region: r.pick(['OR', 'BE', 'ARA']), postal: String(r.int(10000, 99999)) },
  shopName,
  emailLogo: `https://${domain}/resources/email-templates/shop-logo.png`,
  socialLinks: {
    twitter: { link: `https://twitter.com/${shopName.split(' ')[0]}`, icon: `https://${domain}/resources/email-templates/twitter-icon.png` },
    facebook: { link: `https://facebook.com/${shopName.split(' ')[0]}`, icon: `https://${domain}/resources/email-templates/facebook-icon.png` },
  },
});

const renderOne = (seed: Seed, r: Rng): Rendered => {
  const s = SENDERS[seed.name];
  if (s === undefined) throw new Error(`no sender for ${seed.name}`);
  const shopName = siteName(r);
  const domain = host(r, shopName).replace(/^[a-z]+\./, '');
  const user = person(r);
  const data: Record<string, unknown> = { ...shopData(r, shopName, domain), userEmailAddress: email(r, user.username), shop: { name: shopName } };
  let url: string | undefined;
  if (s.key !== undefined) {
    url = `https://${r.pick(['', 'shop.', 'www.'])}${domain}${s.path ?? '/'}${urlsafe(r, 43)}`;
    data[s.key] = url;
  } else {
    const groups = r.chance(0.6) ? ['shop manager'] : ['shop manager', 'order fulfillment'];
    Object.assign(data, { groupName: groups[0]?.replace(/\b\w/g, (c) => c.toUpperCase()), groupNames: groups, currentUserName: person(r).full, invitedUserName: user.full, url: `https://admin.${domain}/account/register` });
  }
  return {
    template: seed.name.replace('accounts/', ''),
    lang: seed.language,
    subject: Handlebars.compile(seed.subject)(data),
    html: Handlebars.compile(seed.template)(data),
    fromName: shopName,
    ...(url !== undefined ? { secret: { kind: 'magic_link', value: url, link_purpose: s.purpose } } : {}),
    source: `src/templates/${seed.name}.js + src/templates/index.js + api-plugin-accounts ${s.sender}`,
  };
};

export const reaction: Adapter = {
  product: 'reaction',
  packages: [{ npm: '@reactioncommerce/api-plugin-email-templates@1.1.7' }, { npm: '@reactioncommerce/api-plugin-accounts@2.0.4' }],
  render: async ({ roots, rng, reps }) => {
    const seeds = ((await import(pathToFileURL(join(roots[0] ?? '', 'src/templates/index.js')).href)) as { default: Seed[] }).default;
    const accounts = seeds.filter((s) => s.name in SENDERS);
    if (accounts.length < 4) throw new Error(`only ${accounts.length} account templates in src/templates/index.js`);
    return accounts.flatMap((seed) => repsOf(reps * 3).map((n) => renderOne(seed, rng(`${seed.name}:${n}`))));
  },
};
