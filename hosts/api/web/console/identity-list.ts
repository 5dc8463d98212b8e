// The project's identities: a page at a time (the API pages, so 10,000 identities cost one page),
// filtered by status and searched by the start of the label (the API's indexed `label`, so a search
// costs one page too), each with its time left and domain; and the form that creates one.
import { byId, el, say, timeLeft } from '../dom.js';
import { api } from './session.js';
import type { Identity, Page } from './types.js';

const PAGE = 20;
let offset = 0;
let open: (identity: Identity) => void = () => undefined;

export const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1);

/** Time left for a live identity; a squashed or expired one has none, whatever its expiry said. */
export const leftOf = (identity: Identity): string =>
  identity.status === 'squashed' || identity.status === 'expired' ? 'receives no mail' : timeLeft(identity.expires_at);

const row = (identity: Identity): HTMLLIElement => {
  const button = el('button', { type: 'button', class: 'link' }, identity.label);
  button.addEventListener('click', () => open(identity));
  return el(
    'li',
    { class: 'row', 'data-id': identity.id },
    el('span', { class: 'row-title' }, button),
    el('code', { class: 'row-sub' }, identity.email),
    el('span', { class: `badge status-${identity.status}` }, identity.status),
    el('span', { class: 'muted' }, leftOf(identity)),
    el('span', { class: 'muted' }, domainOf(identity.email)),
  );
};

/** Loads the current page; answers false when the call failed (the reason is said). */
export const loadIdentities = async (): Promise<boolean> => {
  const status = byId<HTMLSelectElement>('status-filter').value;
  const label = byId<HTMLInputElement>('label-filter').value.trim();
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset), ...(status ? { status } : {}), ...(label ? { label } : {}) });
  const answer = await api<Page<Identity>>('GET', `/v1/identities?${query}`);
  if (!answer.ok) {
    say(byId('list-status'), `The identities could not be loaded: ${answer.message ?? answer.status}.`);
    return false;
  }
  const { items, total } = answer.body;
  byId('identity-list').replaceChildren(...items.map(row));
  byId('list-empty').hidden = items.length > 0;
  byId('page-info').textContent = total === 0 ? '' : `${offset + 1}–${offset + items.length} of ${total}`;
  byId<HTMLButtonElement>('page-prev').disabled = offset === 0;
  byId<HTMLButtonElement>('page-next').disabled = offset + items.length >= total;
  say(byId('list-status'), label ? `${total} ${total === 1 ? 'identity' : 'identities'} whose label starts with “${label}”.` : '');
  return true;
};

const createFrom = async (form: HTMLFormElement): Promise<void> => {
  const error = byId('create-error');
  const label = byId<HTMLInputElement>('create-label').value.trim();
  const ttl = Number(byId<HTMLInputElement>('create-ttl').value || '24');
  const domain = byId<HTMLInputElement>('create-domain').value.trim();
  if (label === '') {
    say(error, 'Give the identity a label.');
    byId('create-label').focus();
    return;
  }
  const answer = await api<Identity>('POST', '/v1/identities', { label, ttl_hours: ttl, ...(domain ? { domain } : {}) });
  if (!answer.ok) {
    say(error, `Not created: ${answer.message ?? answer.status}`);
    return;
  }
  say(error, '');
  form.reset();
  open(answer.body);
};

/** Wires the list and the create form; `onOpen` shows one identity. */
export const startIdentityList = (onOpen: (identity: Identity) => void): void => {
  open = onOpen;
  const form = byId<HTMLFormElement>('create-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void createFrom(form);
  });
  byId('status-filter').addEventListener('change', () => {
    offset = 0;
    void loadIdentities();
  });
  byId('label-search').addEventListener('submit', (event) => {
    event.preventDefault();
    offset = 0;
    void loadIdentities();
  });
  // Emptying the field (its clear button, or deleting the text) shows every identity again.
  byId<HTMLInputElement>('label-filter').addEventListener('input', (event) => {
    if ((event.target as HTMLInputElement).value.trim() !== '') return;
    offset = 0;
    void loadIdentities();
  });
  byId('page-prev').addEventListener('click', () => {
    offset = Math.max(0, offset - PAGE);
    void loadIdentities();
  });
  byId('page-next').addEventListener('click', () => {
    offset += PAGE;
    void loadIdentities();
  });
};

/** Back to the first page, unfiltered (a new sign-in). */
export const resetIdentityList = (): void => {
  offset = 0;
  byId<HTMLSelectElement>('status-filter').value = '';
  byId<HTMLInputElement>('label-filter').value = '';
  byId('identity-list').replaceChildren();
};
