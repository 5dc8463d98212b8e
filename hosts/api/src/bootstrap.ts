import type { Ephemail } from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import type { HostConfig } from './config.js';

export type BootstrapOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'preset'; readonly keyId: string }
  | { readonly kind: 'existing'; readonly keyId: string }
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
    name: 'bootstrap',
  };
  if (config.BOOTSTRAP_API_KEY !== undefined) {
    const registered = await ephemail.auth.createApiKey({ ...base, presetKey: config.BOOTSTRAP_API_KEY });
    if (E.isLeft(registered)) throw new Error(`BOOTSTRAP_API_KEY could not be registered: ${registered.left._tag}`);
    return { kind: 'preset', keyId: registered.right.record.id };
  }
  if (config.EPHEMAIL_MODE !== 'development') return { kind: 'none' };
  const active = (await ephemail.auth.listApiKeys(config.BOOTSTRAP_ORG_ID)).filter((key) => key.revoked_at === null);
  if (active[0] !== undefined) return { kind: 'existing', keyId: active[0].id };
  const created = await ephemail.auth.createApiKey(base);
  if (E.isLeft(created)) throw new Error(`development key could not be created: ${created.left._tag}`);
  return { kind: 'created', keyId: created.right.record.id, key: created.right.key };
};
