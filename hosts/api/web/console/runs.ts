// Reliability runs of the identity shown: start one (`POST /v1/reliability/password-reset` or
// `/invite`), then follow it (`GET /v1/reliability/{id}`) until it ends, as a timeline: created,
// triggered (with your app's status), mail received, completed or failed or timed out. The API
// has no list of runs, so the ones started in this tab are kept here (ids only).
import { byId, el, say, wait } from '../dom.js';
import { percent, when } from './format.js';
import { api } from './session.js';

interface Run {
  readonly id: string;
  readonly flow_type: string;
  readonly status: string;
  readonly target_url: string;
  readonly created_at: string;
  readonly triggered_at: string | null;
  readonly target_status: number | null;
  readonly email_received_at: string | null;
  readonly completed_at: string | null;
  readonly failure_reason: string | null;
  readonly result: { readonly redacted_value: string; readonly delivery_time_ms: number; readonly confidence: number; readonly extraction_type: string } | null;
}

const started = new Map<string, string[]>();
let shown = '';

const step = (label: string, at: string | null, extra = ''): HTMLLIElement[] =>
  at === null ? [] : [el('li', {}, el('time', { datetime: at }, when(at)), ' ', el('strong', {}, label), extra ? ` ${extra}` : '')];

const timeline = (run: Run): HTMLLIElement =>
  el('li', { class: 'row', 'data-id': run.id, 'data-status': run.status },
    el('span', { class: 'row-title' }, `${run.flow_type.replace('_', ' ')} → `, el('code', {}, run.target_url)),
    el('span', { class: `badge status-${run.status}` }, run.status),
    el('ol', { class: 'timeline wide' },
      ...step('created', run.created_at),
      ...step('triggered', run.triggered_at, run.target_status === null ? '' : `(your app answered ${run.target_status})`),
      ...step('mail received', run.email_received_at, run.result ? `after ${run.result.delivery_time_ms} ms` : ''),
      ...step(run.status === 'completed' ? 'completed' : run.status, run.completed_at,
        run.result ? `${run.result.extraction_type} ${run.result.redacted_value} (${percent(run.result.confidence)})` : run.failure_reason ?? '')));

/** Reads every run of this identity started in the tab, following the unfinished ones. */
export const showRuns = async (identityId: string): Promise<void> => {
  shown = identityId;
  const ids = started.get(identityId) ?? [];
  const runs = (await Promise.all(ids.map((id) => api<Run>('GET', `/v1/reliability/${id}`)))).filter((a) => a.ok).map((a) => a.body);
  if (shown !== identityId) return;
  byId('runs').replaceChildren(...runs.map(timeline));
};

/** Polls a run until it leaves `pending` (the page's own loop: the API has no wait on runs). */
const follow = async (identityId: string, runId: string): Promise<void> => {
  for (let i = 0; i < 600 && shown === identityId; i += 1) {
    const answer = await api<Run>('GET', `/v1/reliability/${runId}`);
    if (!answer.ok || answer.body.status !== 'pending') break;
    await wait(1000);
  }
  if (shown === identityId) await showRuns(identityId);
};

export const startRuns = (): void => {
  byId('run-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const identityId = shown;
    const flow = byId<HTMLSelectElement>('run-flow').value;
    const target_url = byId<HTMLInputElement>('run-url').value.trim();
    void api<Run>('POST', `/v1/reliability/${flow}`, { target_url, identity_id: identityId }).then(async (answer) => {
      if (!answer.ok) return say(byId('run-error'), `Not started: ${answer.message ?? answer.status}`);
      say(byId('run-error'), '');
      started.set(identityId, [answer.body.id, ...(started.get(identityId) ?? [])]);
      await showRuns(identityId);
      await follow(identityId, answer.body.id);
    });
  });
};

/** Forgets the runs of the tab (sign-out). */
export const resetRuns = (): void => {
  started.clear();
  byId('runs').replaceChildren();
};
