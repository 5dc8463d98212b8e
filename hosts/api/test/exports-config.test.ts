import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { exportSigningKey, hostExportOptions } from '../src/exports.js';
import { ConfigError, loadConfig } from './config-support.js';

test('config: export files go beside the SQLite file by default, elsewhere for memory and MongoDB, or to EXPORT_DIR', (t) => {
  t.is(loadConfig({ DATABASE_URL: 'sqlite:./var/db/ephemail.db' }).EXPORT_DIR, join('var', 'db', 'exports'));
  t.is(loadConfig({}).EXPORT_DIR, join('data', 'exports'));
  t.is(loadConfig({ DATABASE_URL: 'memory:' }).EXPORT_DIR, join(tmpdir(), 'ephemail-exports'));
  t.is(loadConfig({ DATABASE_URL: 'mongodb://db.example.com/ephemail' }).EXPORT_DIR, join('data', 'exports'));
  t.is(loadConfig({ EXPORT_DIR: '/srv/shared/exports' }).EXPORT_DIR, '/srv/shared/exports');
});

test('config: export limits default to the spec and decisions (3 at once, links valid an hour) and are checked', (t) => {
  const config = loadConfig({});
  t.like(config, { EXPORT_MAX_CONCURRENT: 3, EXPORT_DOWNLOAD_TTL_SECONDS: 3600, EXPORT_CONCURRENCY: 2, EXPORT_INTERVAL_MS: 1000, EXPORT_HOST: undefined });
  t.is(loadConfig({ EXPORT_HOST: 'https://files.example.com/' }).EXPORT_HOST, 'https://files.example.com');
  const error = t.throws(() => loadConfig({ EXPORT_MAX_CONCURRENT: '0', EXPORT_SIGNING_SECRET: 'short', EXPORT_HOST: 'ftp://files.example.com' }), { instanceOf: ConfigError });
  for (const name of ['EXPORT_MAX_CONCURRENT', 'EXPORT_SIGNING_SECRET', 'EXPORT_HOST']) t.regex(error!.message, new RegExp(name));
});

test('exports: the link key is the secret\'s, else one derived from the data key (the same on every host), else random', (t) => {
  const secret = 'x'.repeat(40);
  const dataKey = Buffer.alloc(32, 9);
  t.deepEqual(exportSigningKey(loadConfig({ EXPORT_SIGNING_SECRET: secret }), dataKey), createHash('sha256').update(secret).digest());
  const derived = exportSigningKey(loadConfig({}), dataKey);
  t.deepEqual(derived, exportSigningKey(loadConfig({}), Buffer.alloc(32, 9)));
  t.notDeepEqual(derived, dataKey);
  t.notDeepEqual(exportSigningKey(loadConfig({}), undefined), exportSigningKey(loadConfig({}), undefined));
});

test('exports: links name EXPORT_HOST when set, else the public base the host listens on', (t) => {
  const own = hostExportOptions(loadConfig({}), undefined, () => 'http://127.0.0.1:4000');
  const elsewhere = hostExportOptions(loadConfig({ EXPORT_HOST: 'https://files.example.com' }), undefined, () => 'http://127.0.0.1:4000');
  t.is((own.downloadBase as () => string)(), 'http://127.0.0.1:4000');
  t.is((elsewhere.downloadBase as () => string)(), 'https://files.example.com');
  t.like(elsewhere, { maxConcurrent: 3, downloadTtlMs: 3_600_000 });
});
