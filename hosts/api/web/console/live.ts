// The identity's live wait: the API's long-poll on `events/latest?after=…&wait=…`, answered as
// soon as a newer event is stored (mail, extraction, lifecycle). On each, the page reads again.
// A squashed or expired identity receives nothing more: the wait stops at its squash or expiry
// event (the API holds a wait on such an identity for its whole length, then answers 404), and
// is not started for one.
import { byId, say, wait } from '../dom.js';
import { api } from './session.js';
import type { IdentityEvent } from './types.js';

const WAIT_SECONDS = 25;
const END = new Set(['identity.squashed', 'identity.expired']);
let controller: AbortController | undefined;

const state = (value: 'open' | 'off', text: string): void => {
  const pill = byId('live-state');
  pill.dataset.state = value;
  pill.textContent = text;
};

/** The newest event's id now, so the wait asks only for what comes after it. */
const newest = async (id: string, signal: AbortSignal): Promise<string | undefined> => {
  const answer = await api<IdentityEvent>('GET', `/v1/identities/${id}/events/latest`, undefined, signal);
  return answer.ok ? answer.body.id : undefined;
};

const loop = async (id: string, signal: AbortSignal, changed: () => Promise<void>): Promise<void> => {
  let after = await newest(id, signal);
  let failures = 0;
  state('open', 'Live');
  while (!signal.aborted) {
    const query = new URLSearchParams({ wait: String(WAIT_SECONDS), ...(after ? { after } : {}) });
    const answer = await api<IdentityEvent>('GET', `/v1/identities/${id}/events/latest?${query}`, undefined, signal).catch(() => undefined);
    if (signal.aborted) return;
    if (answer?.ok === true) {
      failures = 0;
      after = answer.body.id;
      if (answer.body.type === 'email.received') say(byId('mail-announce'), 'New mail arrived.');
      await changed();
      if (END.has(answer.body.type)) return state('off', 'Closed');
    } else if (answer?.status === 409 || answer?.status === 401) {
      state('off', answer.status === 409 ? 'Closed' : 'Not live');
      return;
    } else if (answer?.status !== 404) {
      // A network or server failure: try again, a little later each time (at most 30 s).
      failures += 1;
      state('off', 'Reconnecting…');
      await wait(Math.min(30_000, 1000 * 2 ** Math.min(failures, 5)));
      state('open', 'Live');
    }
  }
};

/** Starts the wait for a live identity (stopping any other); `changed` runs after each new event. */
export const startLive = (id: string, status: string, changed: () => Promise<void>): void => {
  stopLive();
  if (status === 'squashed' || status === 'expired') return state('off', 'Closed');
  const mine = new AbortController();
  controller = mine;
  void loop(id, mine.signal, changed).catch(() => {
    if (!mine.signal.aborted) state('off', 'Not live');
  });
};

export const stopLive = (): void => {
  controller?.abort();
  controller = undefined;
  state('off', 'Not live');
};
