/**
 * Vendure (npm `@vendure/email-plugin`): the account mails of `lib/src/handler/default-email-handlers.js`
 * (e-mail verification, password reset, e-mail change), each handler's subject read from its
 * `setSubject(…)`, its body `templates/<type>/body.hbs` with the `header`/`footer` partials rendered by
 * Handlebars as the plugin's generator does, with the global template variables a shop sets
 * (`verifyEmailAddressUrl`, `passwordResetUrl`, `changeEmailAddressUrl`) and the handler's token
 * (shaped as Vendure's verification tokens: the time in base64, `_`, a random id). The MJML that
 * comes out is laid out here as the tables and divs MJML produces, near enough (the styles are
 * simplified; text, links and structure are the template's). English only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { repsOf } from '../locales.js';
import { date, hex, host, siteName } from '../random.js';
import type { Adapter, LinkPurpose, Rendered } from '../types.js';

const HANDLERS = 'lib/src/handler/default-email-handlers.js';

const attr = (attrs: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1];

/** MJML's elements as the HTML they turn into (simplified styles). */
const mjmlToHtml = (mjml: string): string =>
  mjml
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<mjml>/g, '<!doctype html><html xmlns="http://www.w3.org/1999/xhtml">')
    .replace(/<\/mjml>/g, '</html>')
    .replace(/<mj-head>/g, '<head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">')
    .replace(/<\/mj-head>/g, '</head>')
    .replace(/<mj-title>([\s\S]*?)<\/mj-title>/g, '<title>$1</title>')
    .replace(/<mj-style[^>]*>([\s\S]*?)<\/mj-style>/g, '<style type="text/css">$1</style>')
    .replace(/<mj-body([^>]*)>/g, '<body style="word-spacing:normal;"><div>')
    .replace(/<\/mj-body>/g, '</div></body>')
    .replace(/<mj-section([^>]*)>/g, (_m, a: string) => `<div style="background:${attr(a, 'background-color') ?? 'transparent'};margin:0px auto;max-width:600px;"><table align="center" border="0" cellpadding="0" cellspacing="0" role="presentation" style="width:100%;"><tbody><tr><td style="direction:ltr;padding:20px 0;text-align:center;">`)
    .replace(/<\/mj-section>/g, '</td></tr></tbody></table></div>')
    .replace(/<mj-column([^>]*)>/g, (_m, a: string) => `<div class="mj-column-per-100" style="font-size:0px;text-align:left;display:inline-block;vertical-align:top;width:${attr(a, 'width') ?? '100%'};"><table border="0" cellpadding="0" cellspacing="0" role="presentation" width="100%"><tbody>`)
    .replace(/<\/mj-column>/g, '</tbody></table></div>')
    .replace(/<mj-text([^>]*)>/g, (_m, a: string) => `<tr><td align="${attr(a, 'align') ?? 'left'}" style="font-size:0px;padding:10px 25px;word-break:break-word;"><div style="font-family:Ubuntu, Helvetica, Arial, sans-serif;font-size:13px;line-height:1;text-align:${attr(a, 'align') ?? 'left'};color:${attr(a, 'color') ?? '#000000'};">`)
    .replace(/<\/mj-text>/g, '</div></td></tr>')
    .replace(/<mj-button([^>]*)>/g, (_m, a: string) => `<tr><td align="center" style="font-size:0px;padding:10px 25px;word-break:break-word;"><table border="0" cellpadding="0" cellspacing="0" role="presentation" style="border-collapse:separate;line-height:100%;"><tr><td align="center" bgcolor="${attr(a, 'background-color') ?? '#414141'}" role="presentation" style="border:none;border-radius:3px;cursor:auto;padding:10px 25px;background:${attr(a, 'background-color') ?? '#414141'};" valign="middle"><a href="${attr(a, 'href') ?? ''}" style="display:inline-block;background:${attr(a, 'background-color') ?? '#414141'};color:${attr(a, 'color') ?? '#ffffff'};font-family:${attr(a, 'font-family') ?? 'Ubuntu, Helvetica, Arial, sans-serif'};font-size:13px;font-weight:normal;line-height:120%;margin:0;text-decoration:none;text-transform:none;padding:10px 25px;border-radius:3px;" target="_blank">`)
    .replace(/<\/mj-button>/g, '</a></td></tr></table></td></tr>')
    .replace(/<mj-raw>|<\/mj-raw>/g, '');

interface Handler { readonly type: string; readonly urlVar: string; readonly tokenVar: string; readonly purpose: LinkPurpose; readonly path: string }
const HANDLED: readonly Handler[] = [
  { type: 'email-verification', urlVar: 'verifyEmailAddressUrl', tokenVar: 'verificationToken', purpose: 'verify_email', path: '/verify' },
  { type: 'password-reset', urlVar: 'passwordResetUrl', tokenVar: 'passwordResetToken', purpose: 'password_reset', path: '/password-reset' },
  { type: 'email-address-change', urlVar: 'changeEmailAddressUrl', tokenVar: 'identifierChangeToken', purpose: 'verify_email', path: '/verify-email-address-change' },
];

export const vendure: Adapter = {
  product: 'vendure',
  packages: [{ npm: '@vendure/email-plugin@3.7.3' }],
  render: ({ roots, rng, reps }) => {
    const root = roots[0] ?? '';
    const handlers = readFileSync(join(root, HANDLERS), 'utf8');
    const hb = Handlebars.create();
    for (const p of ['header', 'footer']) hb.registerPartial(p, readFileSync(join(root, 'templates/partials', `${p}.hbs`), 'utf8'));
    return HANDLED.flatMap((h) => {
      const subject = new RegExp(`new event_listener_1\\.EmailEventListener\\('${h.type}'\\)[\\s\\S]*?\\.setSubject\\('([^']*)'\\)`).exec(handlers)?.[1];
      if (subject === undefined) throw new Error(`subject of ${h.type} not found in ${HANDLERS}`);
      const body = hb.compile(readFileSync(join(root, 'templates', h.type, 'body.hbs'), 'utf8'));
      return repsOf(reps * 3).map((n): Rendered => {
        const r = rng(`${h.type}:${n}`);
        const shop = siteName(r);
        const base = `https://${host(r, shop)}${r.pick(['', '/account', '/shop'])}`;
        const token = `${Buffer.from(date(r).toJSON()).toString('base64')}_${hex(r, 30)}`;
        const vars = { [h.urlVar]: `${base}${h.path}`, [h.tokenVar]: token, fromAddress: `"${shop}" <noreply@${host(r, shop)}>` };
        const url = `${base}${h.path}?token=${token}`;
        return {
          template: h.type,
          lang: 'en',
          subject: hb.compile(subject)(vars),
          html: mjmlToHtml(body(vars)),
          fromName: shop,
          secret: { kind: 'magic_link', value: url, link_purpose: h.purpose },
          source: `templates/${h.type}/body.hbs + templates/partials/ + ${HANDLERS}`,
        };
      });
    });
  },
};
