// Reading the mail itself, in a modal dialog: the messages of one identity, and one message with
// its sender, subject and text. Codes and links in it are masked until the person asks to see
// them (`reveal=true`). The sender's HTML is shown only in an iframe that is sandboxed (no
// script, no same origin), given as `srcdoc` with a policy that loads nothing from anywhere; the
// page's own policy, which srcdoc documents inherit, forbids the rest.
import { call, type MessageSummary, type MessageView, type Page } from './api.js';
import { byId, el, say } from './dom.js';

/** Inside the frame: no script, nothing remote; images only when the mail carries them inline. */
const FRAME_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

interface Reading {
  readonly identityId: string;
  readonly address: string;
  messageId?: string;
  reveal: boolean;
}

let reading: Reading | undefined;
let opener: Element | null = null;

const base = (identityId: string) => `/v1/consumer/identities/${encodeURIComponent(identityId)}/messages`;
const sender = (m: MessageSummary) => (m.from.name ? `${m.from.name} <${m.from.address}>` : m.from.address);
const when = (iso: string) => new Date(iso).toLocaleString();

const open = (identityId: string, address: string): void => {
  const dialog = byId<HTMLDialogElement>('mail-dialog');
  reading = { identityId, address, reveal: false };
  byId('mail-title').textContent = `Mail for ${address}`;
  say(byId('mail-status'), '');
  if (!dialog.open) {
    opener = document.activeElement;
    dialog.showModal();
  }
};

const part = (which: 'list' | 'message'): void => {
  byId('mail-list-part').hidden = which !== 'list';
  byId('mail-message').hidden = which !== 'message';
};

const listItem = (m: MessageSummary): HTMLLIElement => {
  const button = el('button', { type: 'button', class: 'secondary', 'aria-label': `Read “${m.subject || '(no subject)'}” from ${m.from.address}` }, 'Read');
  button.addEventListener('click', () => void showMessage(m.id, false));
  return el(
    'li',
    { class: 'mail-item' },
    el('span', { class: 'mail-subject' }, m.subject || '(no subject)'),
    el('span', { class: 'muted' }, `${sender(m)} · `, el('time', { datetime: m.received_at }, when(m.received_at))),
    button,
  );
};

/** Opens the dialog on the identity's messages, newest first. */
export const openMailbox = async (identityId: string, address: string): Promise<void> => {
  open(identityId, address);
  part('list');
  const answer = await call<Page<MessageSummary>>('GET', `${base(identityId)}?limit=50`).catch(() => undefined);
  if (answer === undefined || !answer.ok) {
    say(byId('mail-status'), answer?.message ?? 'The mail could not be loaded.');
    return;
  }
  byId('mail-list').replaceChildren(...answer.body.items.map(listItem));
  byId('mail-empty').hidden = answer.body.items.length > 0;
  byId('mail-title').focus();
};

/** Opens the dialog on one message (from the live inbox). */
export const openMessage = async (identityId: string, address: string, messageId: string): Promise<void> => {
  open(identityId, address);
  await showMessage(messageId, false);
};

/** The sender's HTML as the frame's document, under its own policy too. */
const frameDocument = (html: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${FRAME_POLICY}"></head><body>${html}</body></html>`;

/**
 * A new frame for each showing, rather than a new `srcdoc` on the old one: changing `srcdoc`
 * navigates the frame, which would leave entries in the tab's history for the Back button.
 */
const htmlFrame = (html: string): HTMLIFrameElement => {
  const frame = el('iframe', { id: 'mail-html', sandbox: '', referrerpolicy: 'no-referrer', title: 'The mail as its sender formatted it' });
  frame.srcdoc = frameDocument(html);
  return frame;
};

const render = (m: MessageView, reveal: boolean): void => {
  byId('mail-subject').textContent = m.subject || '(no subject)';
  byId('mail-from').textContent = sender(m);
  byId('mail-received').replaceChildren(el('time', { datetime: m.received_at }, when(m.received_at)));
  byId('mail-text').textContent = m.text.trim() === '' ? '(This mail has no plain-text part.)' : m.text;
  byId('mail-truncated').hidden = !m.truncated;
  const toggle = byId('mail-reveal');
  toggle.textContent = reveal ? 'Mask codes and links' : 'Show codes and links';
  toggle.setAttribute('aria-pressed', String(reveal));
  byId('mail-masked-note').hidden = reveal;
  const hasHtml = m.html.trim() !== '';
  byId('mail-html-part').hidden = !hasHtml && m.html_withheld !== true;
  byId('mail-html-withheld').hidden = m.html_withheld !== true;
  byId('mail-html-frame').replaceChildren(...(hasHtml ? [htmlFrame(m.html)] : []));
};

const showMessage = async (messageId: string, reveal: boolean): Promise<void> => {
  if (reading === undefined) return;
  reading.messageId = messageId;
  reading.reveal = reveal;
  const query = reveal ? '?reveal=true' : '';
  const answer = await call<MessageView>('GET', `${base(reading.identityId)}/${encodeURIComponent(messageId)}${query}`).catch(() => undefined);
  if (answer === undefined || !answer.ok) {
    say(byId('mail-status'), answer?.message ?? 'The mail could not be loaded.');
    return;
  }
  render(answer.body, reveal);
  part('message');
  byId('mail-subject').focus();
};

/** Wires the dialog's buttons; closing it takes the sender's HTML away and returns focus. */
export const startMailReader = (): void => {
  const dialog = byId<HTMLDialogElement>('mail-dialog');
  byId('mail-close').addEventListener('click', () => dialog.close());
  byId('mail-back').addEventListener('click', () => void (reading && openMailbox(reading.identityId, reading.address)));
  byId('mail-reveal').addEventListener('click', () => void (reading?.messageId && showMessage(reading.messageId, !reading.reveal)));
  dialog.addEventListener('close', () => {
    byId('mail-html-frame').replaceChildren();
    byId('mail-text').textContent = '';
    reading = undefined;
    if (opener instanceof HTMLElement) opener.focus();
    opener = null;
  });
};
