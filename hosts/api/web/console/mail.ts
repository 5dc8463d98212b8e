// An identity's mail: newest first, each with subject, sender, time and a badge when a code or
// link was found in it. Opening one shows it in place of the list (message.ts).
import { byId, el } from '../dom.js';
import { sender, when } from './format.js';
import { renderMessage } from './message.js';
import { api } from './session.js';
import type { Message, MessageSummary, Page } from './types.js';

let identityId = '';
let openId: string | undefined;

const item = (m: MessageSummary): HTMLLIElement => {
  const button = el('button', { type: 'button', class: 'link' }, m.subject || '(no subject)');
  button.addEventListener('click', () => void openMessage(m.id));
  return el(
    'li',
    { class: 'row', 'data-id': m.id },
    el('span', { class: 'row-title' }, button),
    el('span', { class: 'row-sub' }, sender(m.from)),
    el('time', { datetime: m.received_at, class: 'muted' }, when(m.received_at)),
    ...(m.extraction_id ? [el('span', { class: 'badge found' }, 'Code or link found')] : []),
    ...(m.attachments > 0 ? [el('span', { class: 'muted' }, `${m.attachments} attachment${m.attachments === 1 ? '' : 's'}`)] : []),
  );
};

/** Reads the identity's newest messages into the list (the open message stays open). */
export const showMail = async (id: string): Promise<void> => {
  identityId = id;
  const answer = await api<Page<MessageSummary>>('GET', `/v1/identities/${id}/messages?limit=50`);
  if (!answer.ok || identityId !== id) return;
  byId('mail-list').replaceChildren(...answer.body.items.map(item));
  byId('mail-empty').hidden = answer.body.items.length > 0;
};

/** Shows one message in place of the list; `reveal` asks for it unmasked (needs secrets:read). */
export const openMessage = async (messageId: string, reveal = false): Promise<void> => {
  const answer = await api<Message>('GET', `/v1/identities/${identityId}/messages/${messageId}${reveal ? '?reveal=true' : ''}`);
  if (!answer.ok) {
    byId('mail-announce').textContent = `The message could not be read: ${answer.message ?? answer.status}.`;
    return;
  }
  openId = messageId;
  const back = el('button', { type: 'button', class: 'secondary' }, 'All mail of this identity');
  back.addEventListener('click', () => {
    closeMessage();
    byId<HTMLElement>(`mail-list`).querySelector<HTMLElement>(`[data-id="${messageId}"] button`)?.focus();
  });
  const article = byId('message');
  const toggle = () => void openMessage(messageId, !reveal).then(() => article.querySelector<HTMLElement>('button[aria-pressed]')?.focus());
  article.replaceChildren(back, ...renderMessage(identityId, answer.body, { revealed: reveal, toggle }));
  byId('mail-list-part').hidden = true;
  article.hidden = false;
  byId('message-subject').focus();
};

export const closeMessage = (): void => {
  openId = undefined;
  byId('message').hidden = true;
  byId('message').replaceChildren();
  byId('mail-list-part').hidden = false;
};

/** The message open now, if any. */
export const openMessageId = (): string | undefined => openId;
