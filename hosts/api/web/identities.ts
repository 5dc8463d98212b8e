// The signed-in person's identities: the list with copy buttons and expiry countdowns, and the
// form that makes a new one.
import { call, type ConsumerIdentity, type Page } from './api.js';
import { byId, copyButton, el, say, timeLeft } from './dom.js';
import { openMailbox } from './mail-reader.js';
import { secretControl } from './secret.js';

let shown: readonly ConsumerIdentity[] = [];

/** The address of one of the person's identities, for the live inbox's messages. */
export const addressOf = (id: string): string | undefined => shown.find((i) => i.id === id)?.email;

const row = (identity: ConsumerIdentity): HTMLLIElement => {
  const status = byId('identities-status');
  const mail = el('button', { type: 'button', class: 'secondary', 'aria-label': `Read the mail for ${identity.email}` }, 'Mail');
  mail.addEventListener('click', () => void openMailbox(identity.id, identity.email));
  return el(
    'li',
    { class: 'identity', 'data-identity-id': identity.id },
    el('span', { class: 'label' }, identity.label),
    el('code', { class: 'address' }, identity.email),
    copyButton(identity.email, status),
    el('span', { class: 'expiry', 'data-expires-at': identity.expires_at }, timeLeft(identity.expires_at)),
    el('span', { class: 'latest', 'aria-label': `Latest code for ${identity.email}` }),
    el('span', { class: 'row-actions' }, secretControl(identity.id, { address: identity.email }), mail),
  );
};

const render = (): void => {
  const list = byId('identities-list');
  list.replaceChildren(...shown.map(row));
  byId('identities-empty').hidden = shown.length > 0;
};

/** Loads the list; answers the HTTP status so the caller can tell a missing session (401). */
export const loadIdentities = async (): Promise<number> => {
  const answer = await call<Page<ConsumerIdentity>>('GET', '/v1/consumer/identities?limit=100');
  if (answer.ok) {
    shown = answer.body.items;
    render();
  }
  return answer.status;
};

/** Shows a code that just arrived next to its identity. */
export const showLatest = (identityId: string, text: string): void => {
  const cell = document.querySelector(`li[data-identity-id="${CSS.escape(identityId)}"] .latest`);
  if (cell !== null) cell.textContent = text;
};

const create = async (event: Event): Promise<void> => {
  event.preventDefault();
  const input = byId<HTMLInputElement>('identity-label');
  const status = byId('identities-status');
  if (!input.reportValidity()) return;
  const answer = await call<ConsumerIdentity>('POST', '/v1/consumer/identities', { label: input.value.trim() });
  if (answer.status === 201) {
    shown = [answer.body, ...shown];
    render();
    input.value = '';
    say(status, `Created ${answer.body.email}`);
    return;
  }
  say(
    status,
    answer.code === 'identity_limit_reached'
      ? 'You have as many identities as your account allows. Upgrade for more.'
      : (answer.message ?? `Could not create the identity (${answer.status}).`),
  );
};

/** Wires the create form and the once-a-minute countdown refresh. */
export const startIdentities = (): void => {
  byId('identity-form').addEventListener('submit', (event) => void create(event));
  setInterval(() => {
    for (const cell of document.querySelectorAll<HTMLElement>('.expiry[data-expires-at]')) cell.textContent = timeLeft(cell.dataset.expiresAt ?? '');
  }, 30_000);
};
