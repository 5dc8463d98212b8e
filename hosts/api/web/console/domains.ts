// Custom domains: register one, the two DNS records to publish, and Verify (which asks DNS now
// and, when a record is missing, says which and what DNS holds there).
import { byId, el, say } from '../dom.js';
import { api } from './session.js';
import type { Page } from './types.js';

interface DnsRecord {
  readonly type: string;
  readonly host: string;
  readonly value?: string;
  readonly expected?: string;
  readonly status: string;
  readonly found?: readonly string[];
}

interface Domain {
  readonly id: string;
  readonly domain: string;
  readonly status: string;
  readonly dns_records: readonly DnsRecord[];
}

const records = (list: readonly DnsRecord[], caption = 'DNS records to publish'): HTMLElement =>
  el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': 'DNS records, scrolls sideways on narrow screens' },
    el('table', { class: 'grid' },
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, ...['Type', 'Host', 'Value', 'Status'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...list.map((r) => el('tr', {}, el('td', {}, r.type), el('td', {}, el('code', {}, r.host)), el('td', {}, el('code', {}, r.value ?? r.expected ?? '')),
        el('td', {}, r.status, r.found && r.found.length > 0 ? ` (found ${r.found.join(', ')})` : '')))),
    ),
  );

const verify = async (domain: Domain, status: HTMLElement): Promise<void> => {
  status.textContent = 'Asking DNS…';
  const answer = await api<Domain>('POST', `/v1/domains/${domain.id}/verify`, {});
  if (answer.ok) {
    await loadDomains();
    return say(byId('domains-status'), `${domain.domain} verified: identities can use it now.`);
  }
  const details = (answer.body as { error?: { details?: { records?: DnsRecord[] } } }).error?.details?.records;
  status.textContent = answer.status === 422 ? 'Not verified yet: a record is missing.' : `Not verified: ${answer.message ?? answer.status}`;
  if (details !== undefined) status.after(records(details, 'What DNS holds now'));
};

const domainRow = (d: Domain): HTMLLIElement => {
  const status = el('p', { class: 'status', role: 'status' });
  const button = el('button', { type: 'button', class: 'secondary', 'aria-label': `Verify ${d.domain}` }, 'Verify');
  button.addEventListener('click', () => {
    status.nextElementSibling?.remove();
    void verify(d, status);
  });
  return el('li', { class: 'row', 'data-id': d.id },
    el('strong', { class: 'row-title' }, d.domain), el('span', { class: `badge status-${d.status}` }, d.status.replace('_', ' ')),
    el('div', { class: 'wide' }, records(d.dns_records), el('p', { class: 'buttons' }, button), status));
};

export const loadDomains = async (): Promise<void> => {
  const answer = await api<Page<Domain>>('GET', '/v1/domains?limit=50');
  if (!answer.ok) return say(byId('domains-status'), answer.status === 403 ? 'Domains need a key with domains:read.' : `Not loaded: ${answer.message ?? answer.status}`);
  // The list has no records: each domain is read whole (a plan allows a handful of domains).
  const whole = await Promise.all(answer.body.items.map(async (d) => (await api<Domain>('GET', `/v1/domains/${d.id}`)).body));
  byId('domains').replaceChildren(...whole.filter((d) => Array.isArray(d.dns_records)).map(domainRow));
  byId('domains-empty').hidden = answer.body.items.length > 0;
};

export const startDomains = (): void => {
  const form = byId<HTMLFormElement>('domain-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const domain = byId<HTMLInputElement>('domain-name').value.trim();
    void api<Domain>('POST', '/v1/domains', { domain }).then(async (answer) => {
      if (!answer.ok) return say(byId('domain-error'), `Not registered: ${answer.message ?? answer.status}`);
      say(byId('domain-error'), '');
      form.reset();
      say(byId('domains-status'), `${answer.body.domain} registered: publish its two records, then Verify.`);
      await loadDomains();
    });
  });
};
