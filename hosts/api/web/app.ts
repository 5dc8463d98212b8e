// The web app at `/`: a throwaway inbox for anyone, and for people who sign in (by a mailed
// link) their identities, a live inbox and notifications. Everything talks to this host's /v1.
import { call, type SessionState } from './api.js';
import { byId, say } from './dom.js';
import { startFreeInbox } from './free-inbox.js';
import { loadIdentities, startIdentities } from './identities.js';
import { closeInbox, loadNotifications, openInbox } from './live-inbox.js';
import { startMailReader } from './mail-reader.js';
import { startSignInForm } from './sign-in-form.js';

/** Shows one of the two views; focus goes to its heading so keyboard users land in it. */
const show = (signedIn: boolean, moveFocus: boolean): void => {
  byId('signed-out').hidden = signedIn;
  byId('signed-in').hidden = !signedIn;
  byId('account-actions').hidden = !signedIn;
  document.body.dataset.view = signedIn ? 'signed-in' : 'signed-out';
  if (moveFocus) byId(signedIn ? 'signed-in-title' : 'free-title').focus();
};

/**
 * The session cookie is HttpOnly, so the page asks the host whether it signs someone in: the
 * probe answers 200 either way, and a signed-out visitor's load makes no failing request.
 */
const sessionState = async (): Promise<SessionState> => {
  const answer = await call<SessionState>('GET', '/v1/consumer/session').catch(() => undefined);
  return answer?.ok === true ? answer.body : { signed_in: false };
};

const enterSignedIn = async (moveFocus: boolean): Promise<boolean> => {
  const session = await sessionState();
  if (!session.signed_in) {
    show(false, moveFocus);
    return false;
  }
  byId('account-who').textContent = session.email ?? '';
  const status = await loadIdentities().catch(() => 0);
  if (status !== 200) {
    show(false, moveFocus);
    return false;
  }
  show(true, moveFocus);
  openInbox();
  await loadNotifications();
  return true;
};

const upgrade = async (): Promise<void> => {
  const answer = await call<{ checkout_url: string }>('POST', '/v1/consumer/upgrade', {});
  if (answer.ok) {
    window.location.assign(answer.body.checkout_url);
    return;
  }
  say(byId('account-status'), answer.code === 'already_upgraded' ? 'Your account is already upgraded.' : (answer.message ?? 'The upgrade could not start.'));
};

const signOut = async (): Promise<void> => {
  const answer = await call('POST', '/v1/consumer/logout', {});
  if (answer.ok || answer.status === 401) {
    closeInbox();
    byId('account-who').textContent = '';
    byId<HTMLDialogElement>('mail-dialog').close();
    show(false, true);
    say(byId('account-outcome'), 'You are signed out.');
    return;
  }
  say(byId('account-status'), answer.message ?? 'Could not sign out.');
};

const start = async (): Promise<void> => {
  startFreeInbox();
  startSignInForm();
  startIdentities();
  startMailReader();
  byId('upgrade').addEventListener('click', () => void upgrade());
  byId('sign-out').addEventListener('click', () => void signOut());
  await enterSignedIn(false);
  document.body.dataset.ready = 'true';
};

void start();
