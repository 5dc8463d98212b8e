/**
 * SuperTokens (npm `supertokens-node`): the HTML mails of its SMTP delivery services, run as the
 * package ships them (`get…EmailContent` of
 * `lib/build/recipe/<recipe>/emaildelivery/services/smtp/*.js`, with `appInfo.appName` and the
 * package's own `humaniseMilliseconds`): passwordless sign-in with a code, a link or both, e-mail
 * verification, password reset and WebAuthn account recovery. Links are built as the recipes'
 * `utils.js` build them (origin, `websiteBasePath`, path, `token` and `tenantId`; the passwordless
 * link carries `preAuthSessionId` and `#linkCode`); the code is the core's six digits. A mail with
 * both leads with the code (label otp, the link in `also`). English only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { alnum, base64url, digits, host, person, siteName, type Rng } from '../random.js';
import type { Adapter, LinkPurpose, Rendered, Secret } from '../types.js';

const SMTP = (recipe: string, file: string): string => `lib/build/recipe/${recipe}/emaildelivery/services/smtp/${file}.js`;

interface Content { body: string; subject: string }
type ContentFn = (input: Record<string, unknown>) => Content;

/** The module's default export, run with the two modules it needs given: the app's name and the package's humaniser. */
const load = (root: string, file: string, appName: string): ContentFn => {
  const utils = readFileSync(join(root, 'lib/build/utils.js'), 'utf8');
  const humanise = /function humaniseMilliseconds\(ms\) \{[\s\S]*?\n\}\n/.exec(utils)?.[0];
  if (humanise === undefined) throw new Error('humaniseMilliseconds not found in lib/build/utils.js');
  const humaniseMilliseconds = new Function(`${humanise}\nreturn humaniseMilliseconds;`)() as (ms: number) => string;
  const modules: Record<string, unknown> = {
    '../../../../../supertokens': { __esModule: true, default: { getInstanceOrThrowError: () => ({ appInfo: { appName } }) } },
    '../../../../../utils': { humaniseMilliseconds },
  };
  const exports: Record<string, unknown> = {};
  new Function('exports', 'require', readFileSync(join(root, file), 'utf8'))(exports, (id: string) => {
    if (!(id in modules)) throw new Error(`${file} requires ${id}`);
    return modules[id];
  });
  return exports.default as ContentFn;
};

interface Spec { readonly template: string; readonly recipe: string; readonly file: string; readonly path?: string; readonly purpose: LinkPurpose; readonly code?: boolean; readonly link?: boolean; readonly input?: string }
const SPECS: readonly Spec[] = [
  { template: 'passwordless_otp', recipe: 'passwordless', file: 'passwordlessLogin', purpose: 'sign_in', code: true },
  { template: 'passwordless_link', recipe: 'passwordless', file: 'passwordlessLogin', purpose: 'sign_in', link: true },
  { template: 'passwordless_otp_and_link', recipe: 'passwordless', file: 'passwordlessLogin', purpose: 'sign_in', code: true, link: true },
  { template: 'email_verify', recipe: 'emailverification', file: 'emailVerify', path: '/verify-email', purpose: 'verify_email', input: 'emailVerifyLink' },
  { template: 'password_reset', recipe: 'emailpassword', file: 'passwordReset', path: '/reset-password', purpose: 'password_reset', input: 'passwordResetLink' },
  { template: 'recover_account', recipe: 'webauthn', file: 'recoverAccount', path: '/webauthn/recover', purpose: 'password_reset', input: 'recoverAccountLink' },
];

const renderOne = (root: string, s: Spec, r: Rng): Rendered => {
  const appName = siteName(r);
  const origin = `https://${host(r, appName)}${r.pick(['/auth', '/auth', '/account'])}`;
  const tenantId = r.chance(0.8) ? 'public' : `t${alnum(r, 6).toLowerCase()}`;
  const email = `${person(r).username}@inbox.test`;
  const file = SMTP(s.recipe, s.file);
  const content = load(root, file, appName);
  let secret: Secret;
  let also: Secret[] = [];
  let input: Record<string, unknown>;
  if (s.recipe === 'passwordless') {
    const url = s.link === true ? `${origin}/verify?preAuthSessionId=${base64url(r, 32)}&tenantId=${tenantId}#${base64url(r, 32)}` : undefined;
    const code = s.code === true ? digits(r, 6) : undefined;
    input = { email, codeLifetime: r.pick([900000, 900000, 600000, 3600000]), urlWithLinkCode: url, userInputCode: code };
    const link: Secret | undefined = url !== undefined ? { kind: 'magic_link', value: url, link_purpose: 'sign_in' } : undefined;
    if (code !== undefined) {
      secret = { kind: 'otp', value: code };
      also = link !== undefined ? [link] : [];
    } else secret = link as Secret;
  } else {
    const url = `${origin}${s.path ?? ''}?token=${alnum(r, 128)}&tenantId=${tenantId}`;
    input = { user: { id: `${alnum(r, 8)}-${alnum(r, 4)}`, email }, [s.input ?? '']: url };
    secret = { kind: 'magic_link', value: url, link_purpose: s.purpose };
  }
  const out = content(input);
  return { template: s.template, lang: 'en', subject: out.subject, html: out.body, fromName: appName, secret, ...(also.length > 0 ? { also } : {}), source: file };
};

export const supertokens: Adapter = {
  product: 'supertokens',
  packages: [{ npm: 'supertokens-node@24.0.3' }],
  render: ({ roots, rng, reps }) => SPECS.flatMap((s) => repsOf(reps * 3).map((n) => renderOne(roots[0] ?? '', s, rng(`${s.template}:${n}`)))),
};
