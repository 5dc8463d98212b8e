// This month's use against the plan's limits (`GET /v1/billing/usage`, scope billing:read).
import { byId, el } from '../dom.js';
import { api } from './session.js';

interface Usage {
  readonly identities_limit: number;
  readonly active_identities: number;
  readonly identities_created: number;
  readonly api_calls: number;
  readonly api_calls_limit: number;
  readonly domains_registered: number;
  readonly domains_limit: number;
}

const meter = (name: string, used: number, limit: number): HTMLElement[] => [
  el('dt', {}, name),
  el('dd', {}, el('progress', { max: String(limit), value: String(Math.min(used, limit)), 'aria-label': name }), ` ${used.toLocaleString()} of ${limit.toLocaleString()}`),
];

export const showUsage = async (): Promise<void> => {
  const answer = await api<Usage>('GET', '/v1/billing/usage');
  const panel = byId('usage');
  if (answer.status === 403) return void panel.replaceChildren(el('p', { class: 'muted' }, 'Usage needs a key with billing:read.'));
  if (!answer.ok) return void panel.replaceChildren(el('p', { class: 'error' }, `Not loaded: ${answer.message ?? answer.status}`));
  const u = answer.body;
  panel.replaceChildren(
    el('dl', { class: 'meta usage' },
      ...meter('Live identities', u.active_identities, u.identities_limit),
      ...meter('API calls', u.api_calls, u.api_calls_limit),
      ...meter('Custom domains', u.domains_registered, u.domains_limit)),
    el('p', { class: 'muted' }, `${u.identities_created.toLocaleString()} identities created this month.`),
  );
};
