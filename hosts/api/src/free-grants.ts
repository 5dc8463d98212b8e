import { createHash } from 'node:crypto';
import type { HostConfig } from './config.js';
import { loadDataKey } from './data-key.js';

/**
 * The secret that signs the free tier's anonymous grants: `FREE_GRANT_SECRET`, else in production
 * mode one derived from the data key (so production always requires grants, and every host and
 * the CLI agree), else none (development: the grant header is optional).
 */
export const freeGrantSecret = (config: HostConfig): Buffer | undefined => {
  if (config.FREE_GRANT_SECRET !== undefined) return createHash('sha256').update(config.FREE_GRANT_SECRET).digest();
  if (config.EPHEMAIL_MODE !== 'production') return undefined;
  const key = loadDataKey(config);
  return key === undefined ? undefined : createHash('sha256').update('ephemail free-tier grants\n').update(key).digest();
};
