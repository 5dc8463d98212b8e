// The identity's events, newest first: mail, extraction and lifecycle, as the API records them.
import { byId, el } from '../dom.js';
import { when } from './format.js';
import { api } from './session.js';
import type { IdentityEvent, Page } from './types.js';

/** A short line on what the event says, from fields its data carries (no secret: event data is masked). */
const detail = (e: IdentityEvent): string => {
  const d = e.data;
  if (e.type === 'email.received') return `“${String(d.subject ?? '')}” from ${String((d.from as { address?: string } | undefined)?.address ?? d.from ?? '')}`;
  if (e.type === 'extraction.completed') {
    const x = (d.extraction ?? {}) as { type?: string; redacted_value?: string; confidence?: number };
    return `${x.type ?? ''} ${x.redacted_value ?? ''}${x.confidence === undefined ? '' : ` (${Math.round(x.confidence * 100)} %)`}`;
  }
  if (e.type === 'identity.extended') return `by ${String(d.additional_hours ?? '?')} h`;
  return '';
};

export const showEvents = async (identityId: string): Promise<void> => {
  const answer = await api<Page<IdentityEvent>>('GET', `/v1/identities/${identityId}/events?limit=50`);
  if (!answer.ok) return;
  byId('events').replaceChildren(
    ...answer.body.items.map((e) =>
      el('li', { 'data-type': e.type }, el('time', { datetime: e.occurred_at }, when(e.occurred_at)), ' ', el('strong', {}, e.type), ' ', el('span', {}, detail(e))),
    ),
  );
};
