// Webhook endpoints: add one (its signing secret shown once), rotate its secret (the new one
// shown once), and its deliveries with state, attempts, status code and duration of the last
// attempt, each replayable. Everything through /v1/webhooks.
import { byId, el, say } from '../dom.js';
import { when } from './format.js';
import { api } from './session.js';
import type { Page } from './types.js';

interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  readonly secretPreview: string;
}

interface Delivery {
  readonly id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly state: string;
  readonly attempt: number;
  readonly status_code: number | null;
  readonly duration_ms: number | null;
  readonly error: string | null;
  readonly replay: boolean;
  readonly last_attempt_at: string | null;
}

const EVENTS = ['email.received', 'extraction.completed', 'identity.provisioned', 'identity.extended', 'identity.squashed', 'identity.expired'];
let selected: Webhook | undefined;

const showSecret = (secret: string): void => {
  byId('hook-secret-value').textContent = secret;
  byId('hook-secret').hidden = false;
  byId('hook-secret').focus();
};

const hideSecret = (): void => {
  byId('hook-secret-value').textContent = '';
  byId('hook-secret').hidden = true;
};

const rotate = async (hook: Webhook): Promise<void> => {
  const answer = await api<{ secret: string }>('POST', `/v1/webhooks/${hook.id}/rotate-secret`, {});
  if (!answer.ok) return say(byId('hooks-status'), `Not rotated: ${answer.message ?? answer.status}`);
  say(byId('hooks-status'), 'Secret rotated: the previous one keeps verifying for 24 hours.');
  showSecret(answer.body.secret);
  await loadWebhooks();
};

const hookRow = (hook: Webhook): HTMLLIElement => {
  const deliveries = el('button', { type: 'button', class: 'secondary', 'aria-label': `Deliveries to ${hook.url}` }, 'Deliveries');
  deliveries.addEventListener('click', () => void openDeliveries(hook));
  const rotateButton = el('button', { type: 'button', class: 'secondary', 'aria-label': `Rotate the secret of ${hook.url}` }, 'Rotate secret');
  rotateButton.addEventListener('click', () => void rotate(hook));
  return el(
    'li',
    { class: 'row', 'data-id': hook.id },
    el('code', { class: 'row-title' }, hook.url),
    el('span', { class: 'row-sub' }, hook.events.join(', ')),
    el('span', { class: 'muted' }, hook.secretPreview),
    ...(hook.description ? [el('span', { class: 'muted' }, hook.description)] : []),
    el('span', { class: 'buttons' }, deliveries, rotateButton),
  );
};

export const loadWebhooks = async (): Promise<void> => {
  const answer = await api<Page<Webhook>>('GET', '/v1/webhooks?limit=50');
  if (!answer.ok) return say(byId('hooks-status'), `The endpoints could not be loaded: ${answer.message ?? answer.status}.`);
  byId('hooks-list').replaceChildren(...answer.body.items.map(hookRow));
  byId('hooks-empty').hidden = answer.body.items.length > 0;
};

const replay = async (hook: Webhook, d: Delivery): Promise<void> => {
  const answer = await api('POST', `/v1/webhooks/${hook.id}/replay`, { event_id: d.event_id });
  say(byId('deliveries-status'), answer.ok ? `Replay of ${d.event_type} queued.` : `Not replayed: ${answer.message ?? answer.status}`);
  await loadDeliveries();
};

const deliveryRow = (hook: Webhook, d: Delivery): HTMLTableRowElement => {
  const button = el('button', { type: 'button', class: 'secondary', 'aria-label': `Replay ${d.event_type} ${d.event_id}` }, 'Replay');
  button.addEventListener('click', () => void replay(hook, d));
  return el(
    'tr',
    { 'data-state': d.state },
    el('td', {}, d.event_type, d.replay ? el('span', { class: 'muted' }, ' (replay)') : ''),
    el('td', {}, d.state, d.error ? el('span', { class: 'muted' }, ` · ${d.error}`) : ''),
    el('td', {}, String(d.attempt)),
    el('td', {}, d.status_code === null ? '—' : String(d.status_code)),
    el('td', {}, d.duration_ms === null ? '—' : `${d.duration_ms} ms`),
    el('td', {}, d.last_attempt_at ? el('time', { datetime: d.last_attempt_at }, when(d.last_attempt_at)) : '—'),
    el('td', {}, button),
  );
};

export const loadDeliveries = async (): Promise<void> => {
  const hook = selected;
  if (hook === undefined) return;
  const answer = await api<Page<Delivery>>('GET', `/v1/webhooks/${hook.id}/deliveries?limit=50`);
  if (!answer.ok) return say(byId('deliveries-status'), `Not loaded: ${answer.message ?? answer.status}`);
  byId('deliveries').replaceChildren(...answer.body.items.map((d) => deliveryRow(hook, d)));
  if (answer.body.items.length === 0) say(byId('deliveries-status'), 'Nothing delivered yet.');
};

const openDeliveries = async (hook: Webhook): Promise<void> => {
  selected = hook;
  byId('deliveries-title').textContent = `Deliveries to ${hook.url}`;
  byId('deliveries-part').hidden = false;
  say(byId('deliveries-status'), '');
  await loadDeliveries();
  byId('deliveries-title').focus();
};

const create = async (): Promise<void> => {
  const url = byId<HTMLInputElement>('hook-url').value.trim();
  const events = [...byId('hook-events').querySelectorAll<HTMLInputElement>('input:checked')].map((box) => box.value);
  const description = byId<HTMLInputElement>('hook-description').value.trim();
  const answer = await api<{ secret: string }>('POST', '/v1/webhooks', { url, events, ...(description ? { description } : {}) });
  if (!answer.ok) return say(byId('hook-error'), `Not added: ${answer.message ?? answer.status}`);
  say(byId('hook-error'), '');
  byId<HTMLFormElement>('hook-form').reset();
  showSecret(answer.body.secret);
  await loadWebhooks();
};

export const startWebhooks = (): void => {
  byId('hook-events').replaceChildren(
    ...EVENTS.map((type) => el('label', { class: 'choice' }, el('input', { type: 'checkbox', value: type, ...(type === 'email.received' ? { checked: '' } : {}) }), ` ${type}`)),
  );
  byId('hook-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void create();
  });
  byId('hook-secret-done').addEventListener('click', () => {
    hideSecret();
    byId('hooks-list-title').focus();
  });
  byId('deliveries-refresh').addEventListener('click', () => void loadDeliveries());
};

/** Forgets what was shown (sign-out): the secret on screen, the endpoint chosen. */
export const resetWebhooks = (): void => {
  hideSecret();
  selected = undefined;
  byId('deliveries-part').hidden = true;
  byId('hooks-list').replaceChildren();
};
