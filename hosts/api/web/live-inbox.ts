// The live inbox: Server-Sent Events from GET /v1/consumer/inbox (the session cookie goes with
// them), and the notifications list, refreshed whenever a code or link arrives.
import { call, type Notification, type Page } from './api.js';
import { byId, el, say } from './dom.js';
import { addressOf, showLatest } from './identities.js';

interface Received {
  readonly identity_id: string;
  readonly from?: string;
  readonly subject?: string;
}
interface Extracted {
  readonly identity_id: string;
  readonly type: string;
  readonly redacted_value: string;
  readonly confidence: number;
}

const MAX_SHOWN = 50;

const add = (text: string, kind: string): void => {
  const list = byId('inbox-list');
  list.prepend(el('li', { class: kind }, el('time', { datetime: new Date().toISOString() }, new Date().toLocaleTimeString()), ' ', text));
  while (list.children.length > MAX_SHOWN) list.lastElementChild?.remove();
  byId('inbox-empty').hidden = true;
};

export const loadNotifications = async (): Promise<void> => {
  const answer = await call<Page<Notification>>('GET', '/v1/consumer/notifications?limit=20');
  if (!answer.ok) return;
  byId('notifications-list').replaceChildren(
    ...answer.body.items.map((n) =>
      el('li', { class: n.read ? 'read' : 'unread' }, el('strong', {}, n.title), ' ', n.body, ' ', el('time', { datetime: n.created_at }, new Date(n.created_at).toLocaleString())),
    ),
  );
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
    add(`Mail for ${addressOf(data.identity_id) ?? data.identity_id}${data.from ? ` from ${data.from}` : ''}${data.subject ? `: ${data.subject}` : ''}`, 'mail');
  });
  source.addEventListener('extraction.completed', (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as Extracted;
    const what = data.type === 'otp' ? 'Code' : 'Link';
    const text = `${what} ${data.redacted_value} for ${addressOf(data.identity_id) ?? data.identity_id}`;
    add(text, 'extraction');
    showLatest(data.identity_id, `${what}: ${data.redacted_value}`);
    say(byId('inbox-announce'), text);
    refreshNotificationsSoon();
  });
};

export const closeInbox = (): void => {
  source?.close();
  source = undefined;
};
