import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import nodemailer from 'nodemailer';
import { signDownload } from '@ephemail/core';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { tempDir } from './support.js';

// Exports through the real host: SQLite file, files in EXPORT_DIR beside it, mail over SMTP,
// the export worker, signed downloads fetched without any credential.

const ORG = 'org_exp';
const PROJECT = 'proj_exp';
const SECRET = 'export-links-e2e-secret-0123456789abcdef';
const CODE = '582049';

/** An RFC 4180 reader for the downloaded CSV (not the encoder under test). */
const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    i += 1;
    if (quoted && c === '"' && next === '"') {
      cell += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted) {
      cell += c;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && next === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else {
      cell += c;
    }
  }
  if (cell !== '' || row.length > 0) throw new Error('the text does not end with CRLF');
  return rows;
};

const startExportHost = async (env: Record<string, string> = {}) => {
  const { dir, cleanup } = tempDir('ephemail-e2e-exports');
  const host = await startHost(
    loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'e2e.sqlite')}`, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'exports.test', EXPORT_SIGNING_SECRET: SECRET, EXPORT_INTERVAL_MS: '50', ...env }),
  );
  const created = await host.ephemail.auth.createApiKey({ orgId: ORG, projectIds: [PROJECT], scopes: ['identities:read', 'identities:write', 'exports:read', 'exports:write'] });
  if (E.isLeft(created)) throw new Error(created.left._tag);
  const key = created.right.key;
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'x-org-id': ORG, 'x-project-id': PROJECT };
    if (method !== 'GET') Object.assign(headers, { 'idempotency-key': randomUUID(), 'content-type': 'application/json' });
    const res = await fetch(`${host.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };
  /** Polls the export until it leaves pending/processing (the worker runs it). */
  const settled = async (id: string): Promise<any> => {
    for (let i = 0; i < 2_400; i += 1) {
      const view = (await call('GET', `/v1/exports/${id}`)).json;
      if (view.status === 'ready' || view.status === 'failed') return view;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`export ${id} did not finish`);
  };
  return { host, key, call, settled, exportDir: join(dir, 'exports'), close: async () => (await host.close(), cleanup()) };
};

let env: Awaited<ReturnType<typeof startExportHost>>;
let host: RunningHost;
let identities: any[];
test.before(async () => {
  env = await startExportHost();
  host = env.host;
  identities = [];
  for (const label of ['=SUM(A1:A9)', 'plain', 'with, comma']) identities.push((await env.call('POST', '/v1/identities', { label })).json);
  const mailer = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  await mailer.sendMail({ from: 'no-reply@app.example.com', to: identities[0].email, subject: `Your code is ${CODE}`, text: `Use ${CODE} to sign in. It expires in 10 minutes.` });
  mailer.close();
  const extraction = await env.call('GET', `/v1/identities/${identities[0].id}/extractions/latest?wait=20`);
  if (extraction.status !== 200) throw new Error(JSON.stringify(extraction.json));
});
test.after.always(() => env.close());

test.serial('e2e exports: an events export in CSV is the API\'s events, downloaded by its signed link with no API key', async (t) => {
  const created = await env.call('POST', '/v1/exports', { type: 'events', format: 'csv' });
  t.is(created.status, 201);
  const ready = await env.settled(created.json.id);
  t.like(ready, { status: 'ready', download_available: true });
  t.true(ready.download_url.startsWith(`${host.url}/v1/exports/${ready.id}/download?expires=`));
  t.false(ready.download_url.includes(env.key));
  const res = await fetch(ready.download_url);
  t.is(res.status, 200);
  t.is(res.headers.get('content-disposition'), `attachment; filename="${ready.id}.csv"`);
  t.is(res.headers.get('cache-control'), 'no-store, max-age=0');
  const text = await res.text();
  t.is(Buffer.byteLength(text), ready.file_size_bytes);
  t.false(text.includes(CODE), 'no raw code, not even in a subject');
  const [header, ...rows] = parseCsv(text);
  t.deepEqual(header, ['id', 'type', 'identity_id', 'occurred_at', 'data']);
  const fromApi = (await Promise.all(identities.map(async (i) => (await env.call('GET', `/v1/identities/${i.id}/events?limit=200`)).json.items))).flat();
  t.is(rows.length, fromApi.length);
  t.is(ready.row_count, fromApi.length);
  const byId = new Map(fromApi.map((e: any) => [e.id, e]));
  for (const [id, type, identityId, occurredAt, data] of rows) t.deepEqual({ id, type, identity_id: identityId, occurred_at: occurredAt, data: JSON.parse(data!) }, byId.get(id));
  t.deepEqual(rows.map((r) => r[3]), [...rows.map((r) => r[3]!)].sort(), 'oldest first');
  t.true(existsSync(join(env.exportDir, `${ready.id}-1.csv`)));
});

test.serial('e2e exports: identities and extractions in JSON are what the API shows, redacted, formula text kept as data', async (t) => {
  const identitiesExport = await env.settled((await env.call('POST', '/v1/exports', { type: 'identities', format: 'json' })).json.id);
  const listed = (await env.call('GET', '/v1/identities?limit=200')).json.items.reverse();
  t.deepEqual(await (await fetch(identitiesExport.download_url)).json(), listed);
  const extractionsExport = await env.settled((await env.call('POST', '/v1/exports', { type: 'extractions', format: 'json' })).json.id);
  const text = await (await fetch(extractionsExport.download_url)).text();
  t.false(text.includes(CODE));
  // `runner_up` belongs to the read by type (docs/api.md, Reads by type), not to the stored extraction.
  const { runner_up: runnerUp, ...latest } = (await env.call('GET', `/v1/identities/${identities[0].id}/extractions/latest`)).json;
  t.false(runnerUp);
  t.deepEqual(JSON.parse(text), [latest]);
  const csv = await env.settled((await env.call('POST', '/v1/exports', { type: 'identities', format: 'csv' })).json.id);
  const labels = parseCsv(await (await fetch(csv.download_url)).text()).map((row) => row[2]);
  t.true(labels.includes("'=SUM(A1:A9)"));
});

test.serial('e2e exports: a tampered link answers 403, an expired one 410, both in the error envelope', async (t) => {
  const ready = await env.settled((await env.call('POST', '/v1/exports', { type: 'identities', format: 'json' })).json.id);
  const url = new URL(ready.download_url);
  url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86_400));
  const tampered = await fetch(url);
  t.is(tampered.status, 403);
  t.like(await tampered.json(), { error: { code: 'invalid_download_signature' }, retryable: false });
  // A link the host itself signed, an hour old: it is what every link becomes after its hour.
  const key = createHash('sha256').update(SECRET).digest();
  const past = Math.floor(Date.now() / 1000) - 1;
  const expired = await fetch(`${host.url}/v1/exports/${ready.id}/download?expires=${past}&signature=${signDownload(key, ready.id, past)}`);
  t.is(expired.status, 410);
  t.like(await expired.json(), { error: { code: 'download_expired' } });
  t.is((await fetch(`${host.url}/v1/exports/${ready.id}/download`)).status, 403);
});

test('e2e exports: after a short download lifetime the link answers 410 and the maintenance job deletes the file', async (t) => {
  const short = await startExportHost({ EXPORT_DOWNLOAD_TTL_SECONDS: '1', MAINTENANCE_INTERVAL_MS: '100' });
  t.teardown(short.close);
  await short.call('POST', '/v1/identities', { label: 'one' });
  const ready = await short.settled((await short.call('POST', '/v1/exports', { type: 'identities', format: 'csv' })).json.id);
  const file = join(short.exportDir, `${ready.id}-1.csv`);
  t.true(existsSync(file));
  let status = 0;
  for (let i = 0; i < 600 && status !== 410; i += 1) {
    status = (await fetch(ready.download_url)).status;
    if (status !== 410) await new Promise((r) => setTimeout(r, 50));
  }
  t.is(status, 410);
  for (let i = 0; i < 600 && existsSync(file); i += 1) await new Promise((r) => setTimeout(r, 50));
  t.false(existsSync(file));
  t.deepEqual(readdirSync(short.exportDir), []);
  t.like((await short.call('GET', `/v1/exports/${ready.id}`)).json, { status: 'ready', download_available: false, row_count: 1 });
});
