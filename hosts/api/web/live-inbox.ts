// The live inbox: Server-Sent Events from GET /v1/consumer/inbox (the session cookie goes with
// them), and the notifications list, refreshed whenever a code or link arrives.
import { call, secretKindOf, type Notification, type Page, type SecretKind } from './api.js';
import { byId, el, say } from './dom.js';
import { addressOf, showLatest } from './identities.js';
import { openMessage } from './mail-reader.js';
import { secretControl } from './secret.js';

interface Received {
  readonly identity_id: string;
  readonly message_id: string;
  readonly from?: string;
  readonly subject?: string;
}
interface Extracted {
  readonly identity_id: string;
  readonly message_id: string;
  readonly type: SecretKind;
  readonly redacted_value: string;
  readonly confidence: number;
}

const MAX_SHOWN = 50;

const add = (kind: string, ...content: (Node | string)[]): void => {
  const list = byId('inbox-list');
  list.prepend(el('li', { class: kind }, el('time', { datetime: new Date().toISOString() }, new Date().toLocaleTimeString()), ' ', ...content));
  while (list.children.length > MAX_SHOWN) list.lastElementChild?.remove();
  byId('inbox-empty').hidden = true;
};

const readButton = (data: Received, address: string): HTMLButtonElement => {
  const button = el('button', { type: 'button', class: 'secondary', 'aria-label': `Read the mail${data.subject ? ` “${data.subject}”` : ''} for ${address}` }, 'Read');
  button.addEventListener('click', () => void openMessage(data.identity_id, address, data.message_id));
  return button;
};

const notificationRow = (n: Notification): HTMLLIElement => {
  const address = addressOf(n.identity_id) ?? 'this address';
  const kind = secretKindOf(n);
  // A notification follows its extraction: a secret extracted after it was made is a newer one.
  const isThisOne = (secret: { extracted_at: string }) => Date.parse(secret.extracted_at) <= Date.parse(n.created_at);
  return el(
    'li',
    { class: n.read ? 'read' : 'unread', 'data-secret-type': kind ?? '' },
    el('strong', {}, n.title),
    ' ',
    n.body,
    ' ',
    el('time', { datetime: n.created_at }, new Date(n.created_at).toLocaleString()),
    el('span', { class: 'row-actions' }, secretControl(n.identity_id, { address, kind, isThisOne })),
  );
};

/** Rows drawn, by notification id: a refresh keeps them, so a code someone is looking at stays. */
let drawn = new Map<string, HTMLLIElement>();

export const loadNotifications = async (): Promise<void> => {
  const answer = await call<Page<Notification>>('GET', '/v1/consumer/notifications?limit=20');
  if (!answer.ok) return;
  const next = new Map(answer.body.items.map((n) => [n.id, drawn.get(n.id) ?? notificationRow(n)]));
  drawn = next;
  byId('notifications-list').replaceChildren(...next.values());
  byId('notifications-empty').hidden = answer.body.items.length > 0;
};

/**
 * The notification for a code is made by a relay over the event log, a moment after the
 * extraction event itself: look now and twice more shortly after.
 */
const refreshNotificationsSoon = (): void => {
  for (const delay of [0, 1_000, 3_000]) setTimeout(() => void loadNotifications(), delay);
};

let source: EventSource | undefined;

/** Opens the stream (once); the browser reconnects by itself, resuming with Last-Event-ID. */
export const openInbox = (): void => {
  if (source !== undefined) return;
  const state = byId('inbox-state');
  source = new EventSource('/v1/consumer/inbox', { withCredentials: true });
  source.addEventListener('open', () => {
    state.textContent = 'Live';
    state.dataset.state = 'open';
  });
  source.addEventListener('error', () => {
    state.textContent = 'Reconnecting…';
    state.dataset.state = 'reconnecting';
  });
  source.addEventListener('inbound.received', (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as Received;
    const address = addressOf(data.identity_id) ?? data.identity_id;
    add('mail', `Mail for ${address}${data.from ? ` from ${data.from}` : ''}${data.subject ? `: ${data.subject}` : ''} `, el('span', { class: 'row-actions' }, readButton(data, address)));
  });
  source.addEventListener('extraction.completed', (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as Extracted;
    const what = data.type === 'otp' ? 'Code' : 'Link';
    const address = addressOf(data.identity_id) ?? data.identity_id;
    const text = `${what} ${data.redacted_value} for ${address}`;
    const isThisOne = (secret: { message_id: string }) => secret.message_id === data.message_id;
    add('extraction', `${text} `, el('span', { class: 'row-actions' }, secretControl(data.identity_id, { address, kind: data.type, isThisOne })));
    showLatest(data.identity_id, `${what}: ${data.redacted_value}`);
    say(byId('inbox-announce'), text);
    refreshNotificationsSoon();
  });
};

export const closeInbox = (): void => {
  source?.close();
  source = undefined;
};
