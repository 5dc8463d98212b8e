// Sign-in: the API key asks `GET /v1/me` where it may act; with one project it is exchanged at
// once, with several the person picks one first. The key lives only in the field and, until the
// exchange, in this closure; both are cleared as soon as the token is in hand.
import { byId, el, say } from '../dom.js';
import { exchange, whoIs, type Me } from './session.js';

const explain = (status: number, message: string | undefined): string =>
  status === 401
    ? 'That key is not valid: check it was copied whole, and that it has not been revoked.'
    : `Signing in failed (${status}): ${message ?? 'no answer from the service'}.`;

/** Starts the sign-in forms; `done` runs once a token is held. */
export const startSignIn = (done: () => void): { reset: () => void } => {
  const keyForm = byId<HTMLFormElement>('key-form');
  const projectForm = byId<HTMLFormElement>('project-form');
  const field = byId<HTMLInputElement>('api-key');
  const error = byId('sign-in-error');
  let pending: { key: string; me: Me } | undefined;

  const finish = async (key: string, me: Me, projectId: string): Promise<void> => {
    const answer = await exchange(key, me, projectId);
    pending = undefined;
    field.value = '';
    if (!answer.ok) {
      reset();
      say(error, explain(answer.status, answer.message));
      return;
    }
    done();
  };

  const reset = (): void => {
    pending = undefined;
    field.value = '';
    projectForm.hidden = true;
    keyForm.hidden = false;
    say(error, '');
  };

  keyForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = field.value.trim();
    if (key === '') {
      say(error, 'Paste an API key first.');
      field.focus();
      return;
    }
    say(error, '');
    void whoIs(key).then(async (answer) => {
      if (!answer.ok) {
        say(error, explain(answer.status, answer.message));
        field.focus();
        return;
      }
      const me = answer.body;
      if (me.projects.length === 1) return finish(key, me, me.projects[0]!);
      pending = { key, me };
      field.value = '';
      const choices = me.projects.map((project, i) =>
        el('label', { class: 'choice' }, el('input', { type: 'radio', name: 'project', value: project, ...(i === 0 ? { checked: '' } : {}) }), ` ${project}`),
      );
      byId('project-choices').replaceChildren(...choices);
      keyForm.hidden = true;
      projectForm.hidden = false;
      projectForm.querySelector<HTMLInputElement>('input[type=radio]')?.focus();
    });
  });

  projectForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = projectForm.querySelector<HTMLInputElement>('input[name=project]:checked')?.value;
    if (pending === undefined || chosen === undefined) return;
    void finish(pending.key, pending.me, chosen);
  });
  return { reset };
};
