import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { HostConfig } from './config.js';

const KEY_BYTES = 32;

const decode = (text: string, where: string): Buffer => {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${where} must hold ${KEY_BYTES} bytes (64 hex characters or base64)`);
  return key;
};

/**
 * The key that seals secrets at rest (webhook signing secrets). `DATA_KEY` wins; otherwise the
 * file `DATA_KEY_FILE`. In development a missing file is created (mode 0600) next to the SQLite
 * database, so a local install keeps working across restarts; production refuses to start
 * without a key (config.ts), since secrets sealed with a throwaway key are lost at restart.
 */
export const loadDataKey = (config: HostConfig): Buffer | undefined => {
  if (config.DATA_KEY !== undefined) return decode(config.DATA_KEY, 'DATA_KEY');
  const file = config.DATA_KEY_FILE ?? (config.DATABASE_URL.startsWith('sqlite:') ? resolve(dirname(config.DATABASE_URL.slice(7)), 'ephemail.key') : undefined);
  if (file === undefined) return undefined;
  if (existsSync(file)) return decode(readFileSync(file, 'utf8'), file);
  if (config.EPHEMAIL_MODE !== 'development') throw new Error(`DATA_KEY_FILE ${file} does not exist`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return decode(readFileSync(file, 'utf8'), file);
};
