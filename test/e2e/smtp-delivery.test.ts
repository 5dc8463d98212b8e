import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import nodemailer from 'nodemailer';
import { loadConfig, startHost } from '@ephemail/host-api';
import { tempDir } from './support.js';

/**
 * The whole MX path through a real host: an SMTP client over loopback, RCPT checks through core,
 * storage, extraction, and a long-poll over HTTP answered by the delivery.
 */
test('e2e: mail sent over SMTP to the host reaches a waiting long-poll; unknown recipients get 550', async (t) => {
  const host = await startHost(loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'mx.test' }));
  t.teardown(() => host.close());
  const created = await host.ephemail.auth.createApiKey({ orgId: 'org_dev', projectIds: ['proj_dev'], scopes: ['identities:read', 'identities:write', 'secrets:read'] });
  if (E.isLeft(created)) return t.fail();
  const headers = { authorization: `Bearer ${created.right.key}`, 'x-org-id': 'org_dev', 'x-project-id': 'proj_dev' };
  const post = await fetch(`${host.url}/v1/identities`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
    body: JSON.stringify({ label: 'smtp' }),
  });
  const identity = (await post.json()) as { id: string; email: string };
  const polling = fetch(`${host.url}/v1/identities/${identity.id}/extractions/latest?wait=20&reveal=true`, { headers });

  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  const info = await transport.sendMail({
    from: 'Accounts <accounts@service.example>',
    to: identity.email,
    subject: 'Reset your password',
    html: '<p>Click to reset: <a href="https://service.example/reset?token=Zq8v3LmN0pXy">Reset password</a></p><p><a href="https://service.example/unsubscribe">Unsubscribe</a></p>',
  });
  t.deepEqual(info.accepted, [identity.email]);
  const answer = (await (await polling).json()) as { type: string; value: string; link_kind: string };
  t.is(answer.type, 'magic_link');
  t.is(answer.value, 'https://service.example/reset?token=Zq8v3LmN0pXy');
  t.is(answer.link_kind, 'password_reset');

  const refused = await transport.sendMail({ from: 'a@service.example', to: 'nobody@mx.test', subject: 'x', text: 'x' }).catch((error: { responseCode?: number }) => error);
  t.is((refused as { responseCode?: number }).responseCode, 550);
  transport.close();
});

/** A host on a SQLite file of its own (stopped and removed after the test), a key, and one identity. */
const sqliteHostWithIdentity = async (t: ExecutionContext, env: Record<string, string>, label: string) => {
  const dir = tempDir('ephemail-smtp');
  const host = await startHost(loadConfig({ DATABASE_URL: `sqlite:${join(dir.dir, 'mx.sqlite')}`, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'mx.test', ...env }));
  t.teardown(async () => {
    await host.close();
    dir.cleanup();
  });
  const created = await host.ephemail.auth.createApiKey({ orgId: 'org_dev', projectIds: ['proj_dev'], scopes: ['identities:read', 'identities:write'] });
  if (E.isLeft(created)) throw new Error(`creating the key failed: ${created.left._tag}`);
  const headers = { authorization: `Bearer ${created.right.key}`, 'x-org-id': 'org_dev', 'x-project-id': 'proj_dev' };
  const post = await fetch(`${host.url}/v1/identities`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
    body: JSON.stringify({ label }),
  });
  const identity = (await post.json()) as { id: string; email: string };
  return { host, headers, identity };
};

// Delivered on the event loop, and by a delivery thread over its own connection to the file.
for (const threads of ['0', '1']) test(`e2e: twenty SMTP sessions delivering to one identity at once on SQLite (DELIVERY_THREADS=${threads}): every accepted message is stored and evented once`, async (t) => {
  const { host, headers, identity } = await sqliteHostWithIdentity(t, { DELIVERY_THREADS: threads }, 'busy');
  // The host's in-process listeners (long-poll waiters, streams) hear of each event wherever it was logged.
  const heard: string[] = [];
  host.ephemail.events.subscribe((event) => void (event.type === 'email.received' && heard.push(event.id)));
  const sessions = 20;
  const perSession = 5;
  // One connection per session, each sending its messages one after another, all sessions at once:
  // the ingress shares identity reads among them, and their recordings and flushes are combined.
  const accepted = await Promise.all(
    Array.from({ length: sessions }, async (_, s) => {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 1 });
      let count = 0;
      for (let m = 0; m < perSession; m += 1) {
        const info = await transport.sendMail({ from: 'a@service.example', to: identity.email, subject: `s${s} m${m}`, text: `message ${m} of session ${s}` });
        count += info.accepted.length;
      }
      transport.close();
      return count;
    }),
  );
  t.is(accepted.reduce((a, b) => a + b, 0), sessions * perSession);
  const messages = (await (await fetch(`${host.url}/v1/identities/${identity.id}/messages?limit=1`, { headers })).json()) as { total: number };
  t.is(messages.total, sessions * perSession);
  const received = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await (await fetch(`${host.url}/v1/identities/${identity.id}/events?limit=100&offset=${offset}`, { headers })).json()) as { items: { type: string; data: { message_id?: string } }[] };
    received.push(...page.items.filter((event) => event.type === 'email.received'));
    if (page.items.length < 100) break;
  }
  t.is(received.length, sessions * perSession);
  t.is(new Set(received.map((event) => event.data.message_id)).size, sessions * perSession, 'one email.received per message');
  t.is(new Set(heard).size, sessions * perSession);
});

// The limit is decided where the message is recorded, so sessions that all passed RCPT together
// cannot take the identity past it, on the event loop or on a delivery thread.
for (const threads of ['0', '1']) test(`e2e: twelve SMTP sessions at once to an identity with room for three (DELIVERY_THREADS=${threads}): three are stored, the rest answered 452`, async (t) => {
  const { host, headers, identity } = await sqliteHostWithIdentity(t, { DELIVERY_THREADS: threads, MAX_MESSAGES_PER_IDENTITY: '3' }, 'limited');
  const codes = await Promise.all(
    Array.from({ length: 12 }, async (_, s) => {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
      try {
        await transport.sendMail({ from: 'a@service.example', to: identity.email, subject: `session ${s}`, text: `code ${100000 + s}` });
        return 250;
      } catch (error) {
        return (error as { responseCode?: number }).responseCode ?? -1;
      } finally {
        transport.close();
      }
    }),
  );
  t.is(codes.filter((code) => code === 250).length, 3);
  t.deepEqual(codes.filter((code) => code !== 250), Array.from({ length: 9 }, () => 452));
  const messages = (await (await fetch(`${host.url}/v1/identities/${identity.id}/messages?limit=10`, { headers })).json()) as { total: number };
  t.is(messages.total, 3);
});
