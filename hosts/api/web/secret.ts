// The Show control: the raw code or link of one of the person's identities, read only when asked
// from GET /v1/consumer/identities/{id}/secret (never cached), with Copy, and Hide to take it off
// the screen again. Everything else on the page shows secrets masked.
import { call, type RevealedSecret, type SecretKind } from './api.js';
import { copyButton, el, say } from './dom.js';

export interface SecretContext {
  /** The identity's address, to name it to screen-reader users. */
  readonly address: string;
  /** The kind the row is about, when known, for the button's name. */
  readonly kind?: SecretKind | undefined;
  /**
   * Whether the latest secret is the one the row is about. The route answers the identity's
   * latest; when a newer one has arrived since, the control says so rather than pass it off.
   */
  readonly isThisOne?: (secret: RevealedSecret) => boolean;
}

const NAMES: Record<SecretKind, string> = { otp: 'code', magic_link: 'link' };

const secretPath = (identityId: string) => `/v1/consumer/identities/${encodeURIComponent(identityId)}/secret`;

/** Only web links are offered to open: a mail's "link" could be any scheme. */
const isWebLink = (value: string): boolean => /^https?:\/\//i.test(value);

const revealedParts = (secret: RevealedSecret, context: SecretContext, status: HTMLElement): Node[] => {
  const what = `the ${NAMES[secret.type]}`;
  const newer = context.isThisOne !== undefined && !context.isThisOne(secret);
  return [
    ...(newer ? [el('span', { class: 'muted' }, `A newer ${NAMES[secret.type]} arrived since; the latest is:`)] : []),
    el('code', { class: 'secret-code' }, secret.value),
    copyButton(secret.value, status, what),
    ...(secret.type === 'magic_link' && isWebLink(secret.value) ? [el('a', { href: secret.value, target: '_blank', rel: 'noopener noreferrer' }, 'Open link')] : []),
  ];
};

/** A Show/Hide button for the identity's latest raw secret, and where it appears. */
export const secretControl = (identityId: string, context: SecretContext): HTMLElement => {
  const noun = context.kind === undefined ? 'code or link' : NAMES[context.kind];
  const shown = el('span', { class: 'secret-shown' });
  const status = el('span', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const button = el('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false', 'aria-label': `Show the ${noun} for ${context.address}` }, 'Show');
  const setOpen = (open: boolean) => {
    button.textContent = open ? 'Hide' : 'Show';
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', `${open ? 'Hide' : 'Show'} the ${noun} for ${context.address}`);
  };
  button.addEventListener('click', async () => {
    say(status, '');
    if (shown.childElementCount > 0) {
      shown.replaceChildren();
      setOpen(false);
      return;
    }
    const answer = await call<RevealedSecret>('GET', secretPath(identityId)).catch(() => undefined);
    if (answer === undefined || !answer.ok) {
      const why = answer === undefined ? 'Cannot reach the server.' : answer.code === 'extraction_not_found' ? 'No code or link has arrived at this address yet.' : (answer.message ?? `It could not be shown (${answer.status}).`);
      say(status, why);
      return;
    }
    shown.replaceChildren(...revealedParts(answer.body, context, status));
    setOpen(true);
  });
  return el('span', { class: 'secret' }, button, shown, status);
};
