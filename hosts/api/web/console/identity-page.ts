// One identity: its summary, extend and squash, its children and lineage, and below it what it
// received (live), the code or link found, its reliability runs and its events. Leaving the page stops its live wait.
import { byId, say } from '../dom.js';
import { showEvents } from './events.js';
import { showExtraction } from './extraction.js';
import { domainOf, leftOf } from './identity-list.js';
import { showLineage } from './lineage.js';
import { startLive, stopLive } from './live.js';
import { closeMessage, showMail } from './mail.js';
import { showRuns } from './runs.js';
import { api } from './session.js';
import type { Identity } from './types.js';

let current: Identity | undefined;

const render = (identity: Identity): void => {
  current = identity;
  byId('identity-title').textContent = identity.label;
  byId('identity-email').textContent = identity.email;
  byId('identity-status').textContent = identity.status;
  byId('identity-left').textContent = leftOf(identity);
  byId('identity-domain').textContent = domainOf(identity.email);
  byId('identity-id').textContent = identity.id;
  const live = identity.status !== 'squashed' && identity.status !== 'expired';
  byId('extend-form').hidden = !live;
  byId('child-form').hidden = !live;
  byId('run-form').hidden = !live;
  byId('squash').hidden = !live;
  byId('squash-confirm').hidden = true;
};

/** Everything below the summary, read again (after a new event, or on opening). */
const refresh = async (id: string): Promise<void> => {
  await Promise.all([showMail(id), showEvents(id), showExtraction(id), showLineage(id), showRuns(id)]);
};

/** Shows an identity; its mail, events and extraction load, and a live wait starts. */
export const openIdentity = async (identity: Identity): Promise<void> => {
  render(identity);
  say(byId('identity-error'), '');
  say(byId('identity-said'), '');
  closeMessage();
  await refresh(identity.id);
  startLive(identity.id, identity.status, () => {
    void api<Identity>('GET', `/v1/identities/${identity.id}`).then((a) => a.ok && current?.id === a.body.id && render(a.body));
    return refresh(identity.id);
  });
};

export const leaveIdentity = (): void => {
  stopLive();
  current = undefined;
};

const change = async (path: string, body: unknown, said: string): Promise<void> => {
  if (current === undefined) return;
  const answer = await api<Identity>('POST', `/v1/identities/${current.id}/${path}`, body);
  if (!answer.ok) {
    say(byId('identity-error'), `${answer.message ?? answer.status}`);
    return;
  }
  say(byId('identity-error'), '');
  render(answer.body);
  say(byId('identity-said'), said);
  await showEvents(answer.body.id);
};

export const startIdentityPage = (): void => {
  byId('extend-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const hours = Number(byId<HTMLInputElement>('extend-hours').value || '0');
    void change('extend', { additional_hours: hours }, `Extended by ${hours} h.`);
  });
  byId('squash').addEventListener('click', () => {
    byId('squash-confirm').hidden = false;
    byId('squash-no').focus();
  });
  byId('squash-no').addEventListener('click', () => {
    byId('squash-confirm').hidden = true;
    byId('squash').focus();
  });
  byId('squash-yes').addEventListener('click', () => {
    void change('squash', {}, 'Squashed: it receives no more mail.').then(() => byId('identity-title').focus());
  });
};
