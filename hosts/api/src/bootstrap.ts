import type { Ephemail } from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import type { HostConfig } from './config.js';

/** The name of the key the host makes (or registers) itself. */
const BOOTSTRAP_KEY_NAME = 'bootstrap';

/**
 * Scopes a key needs for the README's examples: create and read identities, and reveal the
 * code (`waitForCode`, `ephemail wait`), which needs `secrets:read`.
 */
export const EXAMPLE_SCOPES = ['identities:read', 'identities:write', 'secrets:read'] as const;

/** What a restart that found keys says: where the API is, which key was printed, how to make one. */
export const restartNotice = (url: string, keyId: string | undefined, config: Pick<HostConfig, 'BOOTSTRAP_ORG_ID' | 'BOOTSTRAP_PROJECT_ID'>): string => {
  const printed = keyId === undefined ? 'The development key printed at first start is revoked' : `The development key ${keyId} was printed at first start`;
  const command = `npx ephemail keys create --org ${config.BOOTSTRAP_ORG_ID} --project ${config.BOOTSTRAP_PROJECT_ID} --scopes ${EXAMPLE_SCOPES.join(',')}`;
  return `ephemail is running on ${url}. ${printed}; make another with: ${command}`;
};

export type BootstrapOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'preset'; readonly keyId: string }
  /** Keys exist; `keyId` is the development key made at first start, when it is still active. */
  | { readonly kind: 'existing'; readonly keyId: string | undefined }
  | { readonly kind: 'created'; readonly keyId: string; readonly key: string };

/**
 * Makes sure a first credential exists. `BOOTSTRAP_API_KEY` is registered as given (any mode).
 * Without it, development mode creates one key for the bootstrap org and project the first time
 * the store has none, so `npm start` on a fresh machine prints a working key exactly once.
 */
export const bootstrapCredentials = async (ephemail: Ephemail, config: HostConfig): Promise<BootstrapOutcome> => {
  const base = {
    orgId: config.BOOTSTRAP_ORG_ID,
    projectIds: [config.BOOTSTRAP_PROJECT_ID],
    scopes: config.BOOTSTRAP_SCOPES,
    plan: config.BOOTSTRAP_PLAN,
    name: BOOTSTRAP_KEY_NAME,
  };
  if (config.BOOTSTRAP_API_KEY !== undefined) {
    const registered = await ephemail.auth.createApiKey({ ...base, presetKey: config.BOOTSTRAP_API_KEY });
    if (E.isLeft(registered)) throw new Error(`BOOTSTRAP_API_KEY could not be registered: ${registered.left._tag}`);
    return { kind: 'preset', keyId: registered.right.record.id };
  }
  if (config.EPHEMAIL_MODE !== 'development') return { kind: 'none' };
  const active = (await ephemail.auth.listApiKeys(config.BOOTSTRAP_ORG_ID)).filter((key) => key.revoked_at === null);
  // Newest first: the key made at first start is the oldest named like it, whatever `keys create` added since.
  if (active.length > 0) return { kind: 'existing', keyId: active.filter((key) => key.name === BOOTSTRAP_KEY_NAME).at(-1)?.id };
  const created = await ephemail.auth.createApiKey(base);
  if (E.isLeft(created)) throw new Error(`development key could not be created: ${created.left._tag}`);
  return { kind: 'created', keyId: created.right.record.id, key: created.right.key };
};
