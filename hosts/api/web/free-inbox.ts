// "Get a throwaway inbox now": the free tier, with no account. The token that opens the inbox
// lives only in this tab (sessionStorage), never in a cookie or in the page's address.
import { call, type FreeExtraction, type FreeIdentity } from './api.js';
import { byId, copyButton, say, timeLeft, wait } from './dom.js';

const KEY = 'ephemail.free';

const remembered = (): FreeIdentity | undefined => {
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as FreeIdentity | null;
    return stored !== null && Date.parse(stored.expires_at) > Date.now() ? stored : undefined;
  } catch {
    return undefined;
  }
};

/** Shows the inbox's address and follows its extraction until a code arrives or it ends. */
const follow = async (identity: FreeIdentity): Promise<void> => {
  const status = byId('free-status');
  const result = byId('free-result');
  byId('free-address').textContent = identity.email;
  byId('free-copy').replaceChildren(copyButton(identity.email, byId('free-copied')));
  byId('free-expiry').textContent = timeLeft(identity.expires_at);
  byId('free-inbox').hidden = false;
  byId('free-create').hidden = true;
  say(status, 'Waiting for mail…');
  const path = `/v1/free/identity/${encodeURIComponent(identity.id)}/extraction?token=${encodeURIComponent(identity.token)}`;
  for (;;) {
    const answer = await call<FreeExtraction>('GET', path).catch(() => undefined);
    if (answer === undefined) {
      say(status, 'Cannot reach the server; trying again…');
      await wait(5_000);
      continue;
    }
    if (answer.status === 200 && answer.body.status === 'ready') {
      const found = answer.body;
      byId('free-code').textContent = found.redacted_value;
      byId('free-code-type').textContent = found.type === 'otp' ? 'One-time code' : 'Sign-in link';
      result.hidden = false;
      say(status, `${found.type === 'otp' ? 'Code' : 'Link'} received, masked: ${found.redacted_value}`);
      return;
    }
    if (answer.status === 202 && answer.body.status === 'pending') {
      await wait(Math.max(1, answer.body.retryAfterSeconds) * 1000);
      continue;
    }
    if (answer.status === 429) {
      say(status, 'Checking too often; waiting a moment…');
      await wait((answer.retryAfter ?? 10) * 1000);
      continue;
    }
    sessionStorage.removeItem(KEY);
    say(status, answer.status === 410 ? 'This inbox has expired.' : (answer.message ?? 'This inbox is no longer available.'));
    return;
  }
};

const create = async (): Promise<void> => {
  const button = byId<HTMLButtonElement>('free-button');
  const error = byId('free-error');
  button.disabled = true;
  say(error, '');
  try {
    const answer = await call<FreeIdentity>('POST', '/v1/free/identity', {});
    if (answer.status === 201) {
      sessionStorage.setItem(KEY, JSON.stringify(answer.body));
      await follow(answer.body);
      return;
    }
    say(
      error,
      answer.code === 'ip_limit_reached'
        ? 'Your network already has a free inbox today. Sign up below to have several.'
        : (answer.message ?? `Could not make an inbox (${answer.status}).`),
    );
  } catch {
    say(error, 'Cannot reach the server. Try again in a moment.');
  } finally {
    button.disabled = false;
  }
};

/** Wires the free-inbox panel, and resumes the inbox this tab made earlier. */
export const startFreeInbox = (): void => {
  byId('free-button').addEventListener('click', () => void create());
  const earlier = remembered();
  if (earlier !== undefined) void follow(earlier);
};
