// Sign up or sign in by a mailed link. 409 and 404 offer the other action with the same address.
import { call } from './api.js';
import { byId, el, say } from './dom.js';

type Action = 'signup' | 'login';

const OTHER: Record<Action, { readonly label: string; readonly action: Action }> = {
  signup: { label: 'Send me a sign-in link instead', action: 'login' },
  login: { label: 'Create an account instead', action: 'signup' },
};

const send = async (action: Action): Promise<void> => {
  const input = byId<HTMLInputElement>('account-email');
  const outcome = byId('account-outcome');
  const offer = byId('account-offer');
  offer.replaceChildren();
  if (!input.reportValidity()) return;
  say(outcome, 'Sending…');
  try {
    const answer = await call<{ message?: string }>('POST', `/v1/consumer/${action}`, { email: input.value.trim() });
    if (answer.ok) {
      say(outcome, `${answer.body.message ?? 'Check your mail.'} Open the link in this browser to sign in.`);
      return;
    }
    if (answer.status === 409 || answer.status === 404) {
      say(outcome, answer.status === 409 ? 'That address already has an account.' : 'There is no account for that address yet.');
      const other = OTHER[action];
      const button = el('button', { type: 'button', class: 'secondary' }, other.label);
      button.addEventListener('click', () => void send(other.action));
      offer.append(button);
      button.focus();
      return;
    }
    say(outcome, answer.status === 429 ? 'Too many links asked for. Wait a while and try again.' : (answer.message ?? `Something went wrong (${answer.status}).`));
  } catch {
    say(outcome, 'Cannot reach the server. Try again in a moment.');
  }
};

/** Wires the form: its submit (Enter or the main button) signs up; the second button signs in. */
export const startSignInForm = (): void => {
  byId('account-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const submitter = (event as SubmitEvent).submitter;
    void send(submitter?.id === 'account-login' ? 'login' : 'signup');
  });
};
