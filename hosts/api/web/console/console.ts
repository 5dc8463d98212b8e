// The team console at /console: sign in with an API key, then the project's identities, one
// identity's mail (live), the code or link found with its candidates, its reliability runs and
// its events; webhook endpoints and their deliveries; custom domains and the month's usage. It
// talks only to this host's public /v1 API, with a token kept in memory (session.ts).
import { byId, say } from '../dom.js';
import { loadDomains, startDomains } from './domains.js';
import { forgetReveal } from './extraction.js';
import { leaveIdentity, openIdentity, startIdentityPage } from './identity-page.js';
import { loadIdentities, resetIdentityList, startIdentityList } from './identity-list.js';
import { startLineage } from './lineage.js';
import { signOut, tenant, whenExpired } from './session.js';
import { resetRuns, startRuns } from './runs.js';
import { startSignIn } from './sign-in.js';
import { showUsage } from './usage.js';
import type { Identity } from './types.js';
import { loadWebhooks, resetWebhooks, startWebhooks } from './webhooks.js';

type View = 'sign-in' | 'identities' | 'identity' | 'webhooks' | 'project';
const HEADINGS: Record<View, string> = {
  'sign-in': 'sign-in-title', identities: 'identities-title', identity: 'identity-title', webhooks: 'webhooks-title', project: 'project-title',
};

/** Shows one view and moves focus to its heading, so keyboard and screen-reader users land in it. */
const show = (view: View): void => {
  for (const name of Object.keys(HEADINGS) as View[]) byId(`view-${name}`).hidden = name !== view;
  byId('who-actions').hidden = view === 'sign-in';
  byId('console-nav').hidden = view === 'sign-in';
  const section = view === 'identity' ? 'identities' : view;
  for (const name of ['identities', 'webhooks', 'project']) {
    if (name === section) byId(`nav-${name}`).setAttribute('aria-current', 'page');
    else byId(`nav-${name}`).removeAttribute('aria-current');
  }
  document.body.dataset.view = view;
  byId(HEADINGS[view]).focus();
};

const toList = async (): Promise<void> => {
  leaveIdentity();
  forgetReveal();
  show('identities');
  await loadIdentities();
};

const toIdentity = (identity: Identity): void => {
  show('identity');
  void openIdentity(identity);
};

const toWebhooks = async (): Promise<void> => {
  leaveIdentity();
  forgetReveal();
  show('webhooks');
  await loadWebhooks();
};

const toProject = async (): Promise<void> => {
  leaveIdentity();
  forgetReveal();
  show('project');
  await Promise.all([showUsage(), loadDomains()]);
};

const signedOut = (said: string): void => {
  leaveIdentity();
  forgetReveal();
  signOut();
  resetIdentityList();
  resetWebhooks();
  resetRuns();
  signIn.reset();
  show('sign-in');
  say(byId('console-status'), said);
};

const signIn = startSignIn(() => {
  const where = tenant();
  byId('who').textContent = where === undefined ? '' : `${where.orgId} · ${where.projectId}`;
  say(byId('console-status'), '');
  void toList();
});

startIdentityList(toIdentity);
startIdentityPage();
startLineage(toIdentity);
startRuns();
whenExpired(() => signedOut('Your session ended (the access token expired). Sign in again with the key.'));
byId('sign-out').addEventListener('click', () => signedOut('Signed out. The key was not kept; the token is forgotten.'));
byId('back-to-list').addEventListener('click', () => void toList());
byId('nav-identities').addEventListener('click', () => void toList());
byId('nav-webhooks').addEventListener('click', () => void toWebhooks());
byId('nav-project').addEventListener('click', () => void toProject());
startDomains();
startWebhooks();
document.body.dataset.ready = 'true';
