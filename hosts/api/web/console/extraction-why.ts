// Why the engine ranked each candidate as it did: the signal contributions an extraction read with
// `explain=true` returns (each signal times its weight, in log-odds, largest first). The API decides
// what a read shows: masked, the signals of each secret's surroundings only; shown (`reveal=true`),
// every term of its score, the bias and its shape among them.
// One disclosure per candidate, so a phone shows the ranking first and a reason on demand; each
// holds a table (the numbers, for every reader) with a bar per row (its size, for the eye only).
import { el } from '../dom.js';
import type { Candidate, Contribution } from './types.js';

/** "+1.23" or "−0.45": the sign is the point (for or against the candidate). */
const signed = (n: number): string => `${n < 0 ? '−' : '+'}${Math.abs(n).toFixed(2)}`;

const bar = (c: Contribution, largest: number): HTMLElement => {
  const span = el('span', { class: `why-bar ${c.contribution < 0 ? 'against' : 'for'}`, 'aria-hidden': 'true' });
  // Through the CSSOM: the page's policy refuses style attributes, not style properties.
  span.style.width = `${largest === 0 ? 0 : Math.round((Math.abs(c.contribution) / largest) * 100)}%`;
  return span;
};

const table = (label: string, list: readonly Contribution[]): HTMLElement => {
  const largest = Math.max(0, ...list.map((c) => Math.abs(c.contribution)));
  return el(
    'table',
    { class: 'grid why' },
    el('caption', {}, `Signals of ${label}, largest first`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Signal'), el('th', { scope: 'col' }, 'Contribution'))),
    el(
      'tbody',
      {},
      ...list.map((c) =>
        el('tr', {}, el('th', { scope: 'row' }, c.signal.replaceAll('_', ' ')), el('td', {}, el('span', { class: 'why-number' }, signed(c.contribution)), bar(c, largest))),
      ),
    ),
  );
};

const NONE_SHOWN = 'The engine no longer proposes this one, so it has no reasons to show.';
const NONE_AROUND = 'Nothing around it spoke for or against it; its other reasons come with its value.';

/** The reasons of each candidate (as `label` names it), or a note when the read carried none; `revealed` when the read showed values. */
export const whyOf = (list: readonly Candidate[], label: (c: Candidate) => string, revealed: boolean): HTMLElement => {
  const explained = list.filter((c) => c.explain !== undefined);
  if (explained.length === 0) return el('p', { class: 'muted' }, 'No reasons came with this read.');
  return el(
    'div',
    { class: 'why-list' },
    ...(revealed ? [] : [el('p', { class: 'muted' }, 'Masked values come with the signals of their surroundings only, nothing that depends on the value itself.')]),
    ...explained.map((c, i) => {
      const name = label(c);
      const body = c.explain!.length === 0 ? el('p', { class: 'muted' }, revealed ? NONE_SHOWN : NONE_AROUND) : table(name, c.explain!);
      return el('details', i === 0 ? { open: '' } : {}, el('summary', {}, `Why ${name}`), body);
    }),
  );
};
