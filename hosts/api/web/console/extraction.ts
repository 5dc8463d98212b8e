// The code or link the engine found last, with the runner-up candidates and their calibrated
// confidence. Values are masked; a token with secrets:read gets a Show button that asks the API
// again with `reveal=true` (the raw values are kept only in the page, until Hide or a new read).
// See why asks with `explain=true` for the signals behind each candidate's rank (extraction-why.ts).
import { el } from '../dom.js';
import { byId } from '../dom.js';
import { whyOf } from './extraction-why.js';
import { percent } from './format.js';
import { api, scopes } from './session.js';
import type { Candidate, Extraction } from './types.js';

let shownFor: string | undefined;
let whyFor: string | undefined;

const kind = (c: Candidate): string => (c.type === 'otp' ? 'One-time code' : `Link${c.link_kind ? ` (${c.link_kind.replace('_', ' ')})` : ''}`);

const valueOf = (c: Candidate): HTMLElement =>
  el('code', { class: c.value === undefined ? 'masked' : 'revealed' }, c.value ?? c.redacted_value);

const candidates = (list: readonly Candidate[]): HTMLElement =>
  el(
    'table',
    { class: 'grid' },
    el('caption', {}, 'Candidates, best first'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Kind'), el('th', { scope: 'col' }, 'Value'), el('th', { scope: 'col' }, 'Confidence'))),
    el('tbody', {}, ...list.map((c) => el('tr', {}, el('td', {}, kind(c)), el('td', {}, valueOf(c)), el('td', {}, percent(c.confidence))))),
  );

/** The See why toggle: a pressed state rather than a new label, read again with or without reasons. */
const whyButton = (identityId: string, explained: boolean): HTMLElement => {
  const button = el('button', { type: 'button', class: 'secondary', 'aria-pressed': String(explained), 'data-mode': 'why' }, 'See why');
  button.addEventListener('click', () => {
    whyFor = explained ? undefined : identityId;
    void showExtraction(identityId).then(() => byId('extraction').querySelector<HTMLElement>('button[data-mode="why"]')?.focus());
  });
  return button;
};

const toggle = (identityId: string, revealed: boolean, explained: boolean): HTMLElement[] => {
  const why = whyButton(identityId, explained);
  if (!scopes().includes('secrets:read')) return [el('p', { class: 'muted' }, 'Values are masked. A key with secrets:read can show them.'), el('p', { class: 'buttons' }, why)];
  const show = el('button', { type: 'button', class: 'secondary', 'aria-pressed': String(revealed), 'data-mode': 'Show' }, revealed ? 'Hide' : 'Show');
  show.addEventListener('click', () => {
    shownFor = revealed ? undefined : identityId;
    void showExtraction(identityId).then(() => byId('extraction').querySelector<HTMLElement>('button[data-mode="Show"]')?.focus());
  });
  return [el('p', { class: 'buttons' }, show, ' ', why)];
};

const render = (identityId: string, x: Extraction): HTMLElement[] => [
  el(
    'p',
    { class: 'winner' },
    el('span', { class: 'badge found' }, kind(x)),
    ' ',
    el('strong', {}, valueOf(x)),
    ' ',
    el('span', { class: 'muted' }, `confidence ${percent(x.confidence)}`),
  ),
  ...toggle(identityId, x.value !== undefined, x.explain !== undefined),
  candidates(x.candidates),
  ...(x.explain === undefined ? [] : [whyOf(x.candidates, (c) => `${kind(c)} ${c.value ?? c.redacted_value} (${percent(c.confidence)})`, x.value !== undefined)]),
];

/** Reads the latest extraction (revealed after Show, with reasons after See why, for this identity) into the panel. */
export const showExtraction = async (identityId: string): Promise<void> => {
  if (shownFor !== identityId) shownFor = undefined;
  if (whyFor !== identityId) whyFor = undefined;
  const query = [shownFor === undefined ? '' : 'reveal=true', whyFor === undefined ? '' : 'explain=true'].filter(Boolean).join('&');
  const answer = await api<Extraction>('GET', `/v1/identities/${identityId}/extractions/latest${query ? `?${query}` : ''}`);
  const panel = byId('extraction');
  if (answer.status === 404) return void panel.replaceChildren(el('p', { class: 'muted' }, 'Nothing found yet: no mail with a code or link has arrived.'));
  if (!answer.ok) return void panel.replaceChildren(el('p', { class: 'error' }, `Not loaded: ${answer.message ?? answer.status}`));
  panel.replaceChildren(...render(identityId, answer.body));
};

/** Forgets a Show (leaving the identity, signing out). */
export const forgetReveal = (): void => {
  shownFor = undefined;
  whyFor = undefined;
};
