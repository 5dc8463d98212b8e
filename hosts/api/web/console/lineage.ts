// The tree an identity belongs to, from its root (`GET .../lineage`), each node openable; and the
// form that creates a child of the identity shown (`POST .../children`).
import { byId, el, say } from '../dom.js';
import { api } from './session.js';
import type { Identity } from './types.js';

interface Node {
  readonly id: string;
  readonly parent_id: string | null;
  readonly email: string;
  readonly status: string;
  readonly depth: number;
}

let shown = '';
let open: (identity: Identity) => void = () => undefined;

const openNode = async (id: string): Promise<void> => {
  const answer = await api<Identity>('GET', `/v1/identities/${id}`);
  if (answer.ok) open(answer.body);
  else say(byId('lineage-error'), `Not opened: ${answer.message ?? answer.status}`);
};

/** One node and, nested under it, its children. */
const branch = (node: Node, children: ReadonlyMap<string | null, Node[]>): HTMLLIElement => {
  const self = node.id === shown;
  const name = self
    ? el('strong', { 'aria-current': 'true' }, node.email, el('span', { class: 'muted' }, ' (this identity)'))
    : el('button', { type: 'button', class: 'link' }, node.email);
  if (!self) name.addEventListener('click', () => void openNode(node.id));
  const kids = children.get(node.id) ?? [];
  return el(
    'li',
    { 'data-id': node.id },
    name,
    ' ',
    el('span', { class: `badge status-${node.status}` }, node.status),
    ...(kids.length > 0 ? [el('ul', {}, ...kids.map((k) => branch(k, children)))] : []),
  );
};

export const showLineage = async (identityId: string): Promise<void> => {
  shown = identityId;
  const answer = await api<{ root: string; nodes: Node[] }>('GET', `/v1/identities/${identityId}/lineage`);
  if (!answer.ok || shown !== identityId) return;
  const children = new Map<string | null, Node[]>();
  for (const node of answer.body.nodes) children.set(node.parent_id, [...(children.get(node.parent_id) ?? []), node]);
  const root = answer.body.nodes.find((n) => n.id === answer.body.root);
  byId('lineage').replaceChildren(...(root === undefined ? [] : [branch(root, children)]));
};

export const startLineage = (onOpen: (identity: Identity) => void): void => {
  open = onOpen;
  const form = byId<HTMLFormElement>('child-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const label = byId<HTMLInputElement>('child-label').value.trim();
    if (label === '') return say(byId('lineage-error'), 'Give the child a label.');
    void api<Identity>('POST', `/v1/identities/${shown}/children`, { label }).then(async (answer) => {
      if (!answer.ok) return say(byId('lineage-error'), `Not created: ${answer.message ?? answer.status}`);
      say(byId('lineage-error'), '');
      form.reset();
      await showLineage(shown);
      say(byId('identity-said'), `Child ${answer.body.email} created.`);
    });
  });
};
