import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import nodemailer from 'nodemailer';
import { loadConfig, startHost } from '@ephemail/host-api';
import { parseSamples, scrape, total } from './metrics-support.js';
import { tempDir } from './support.js';

/** A webhook receiver on loopback that answers 200 and counts what it got. */
const startReceiver = async () => {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received: () => received, close: () => server.close() };
};

const codeMail = (to: string): Buffer =>
  Buffer.from(
    [
      'From: Accounts <no-reply@service.example>',
      `To: ${to}`,
      'Subject: Your sign-in code',
      `Message-ID: <${randomUUID()}@service.example>`,
      'Date: Tue, 24 Nov 2026 10:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Your verification code is 482913. It expires in 10 minutes.',
      '',
    ].join('\r\n'),
  );

/**
 * Mail over SMTP (one message, its byte-identical resend, one to an unknown recipient) and one
 * webhook delivery move the counters of the host's /metrics, compared before and after. With
 * DELIVERY_THREADS=1 the message is parsed, extracted and stored on a delivery thread, so what the
 * scrape shows of that was counted there and reached the host thread.
 */
for (const threads of ['0', '1']) {
  test(`e2e metrics (DELIVERY_THREADS=${threads}): SMTP answers, extraction, store operations and a webhook delivery are counted`, async (t) => {
    const dir = tempDir('ephemail-metrics');
    const host = await startHost(
      loadConfig({ DATABASE_URL: `sqlite:${join(dir.dir, 'metrics.sqlite')}`, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'mx.test', DELIVERY_THREADS: threads, WEBHOOK_INTERVAL_MS: '50' }),
    );
    const receiver = await startReceiver();
    t.teardown(async () => {
      receiver.close();
      await host.close();
      dir.cleanup();
    });
    const created = await host.ephemail.auth.createApiKey({ orgId: 'org_dev', projectIds: ['proj_dev'], scopes: ['identities:read', 'identities:write', 'webhooks:read', 'webhooks:write'] });
    if (E.isLeft(created)) return t.fail(created.left._tag);
    const headers = { authorization: `Bearer ${created.right.key}`, 'x-org-id': 'org_dev', 'x-project-id': 'proj_dev' };
    const post = async (path: string, body: unknown) =>
      (await fetch(`${host.url}${path}`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID(), 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<{ id: string; email: string }>;
    const hook = await post('/v1/webhooks', { url: receiver.url, events: ['email.received'] });
    const identity = await post('/v1/identities', { label: 'metrics' });
    const before = parseSamples(await scrape(host.url));

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
    t.teardown(() => transport.close());
    const raw = codeMail(identity.email);
    const envelope = { from: 'bounce@service.example', to: [identity.email] };
    t.deepEqual((await transport.sendMail({ envelope, raw })).accepted, [identity.email]);
    t.deepEqual((await transport.sendMail({ envelope, raw })).accepted, [identity.email], 'the resend is acknowledged too');
    const refused = await transport.sendMail({ envelope: { from: envelope.from, to: ['nobody@mx.test'] }, raw }).catch((error: { responseCode?: number }) => error);
    t.is((refused as { responseCode?: number }).responseCode, 550);

    // The one email.received goes to the receiver; the delivery is recorded after it was counted.
    for (let i = 0; i < 2_400; i += 1) {
      const deliveries = (await (await fetch(`${host.url}/v1/webhooks/${hook.id}/deliveries`, { headers })).json()) as { items: { state: string }[] };
      if (deliveries.items.some((delivery) => delivery.state === 'delivered')) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    t.is(receiver.received(), 1);

    const after = parseSamples(await scrape(host.url));
    const moved = (name: string, ...labels: string[]) => total(after, name, ...labels) - total(before, name, ...labels);
    t.is(moved('ephemail_smtp_messages_total', 'outcome="accepted"'), 1);
    t.is(moved('ephemail_smtp_messages_total', 'outcome="duplicate"'), 1);
    t.is(moved('ephemail_smtp_messages_total', 'outcome="unknown_recipient"'), 1);
    t.is(moved('ephemail_smtp_messages_total'), 3, 'nothing else was answered');
    t.true(moved('ephemail_smtp_received_bytes_total') >= 2 * raw.byteLength);
    t.is(moved('ephemail_smtp_delivery_duration_seconds_count'), 2);
    t.is(moved('ephemail_extractions_total', 'type="otp"'), 2, 'the message and its resend were both read');
    t.is(moved('ephemail_extraction_duration_seconds_count'), 2);
    t.is(moved('ephemail_parse_failures_total'), 0);
    t.true(moved('ephemail_store_operation_duration_seconds_count', 'operation="transact"') >= 1, 'the recordings were timed');
    t.is(moved('ephemail_webhook_attempts_total', 'outcome="success"'), 1);
    t.is(moved('ephemail_webhook_delivery_latency_seconds_count'), 1);
    t.is(total(after, 'ephemail_webhook_deliveries_pending'), 0);
    t.true(after.has('ephemail_event_relay_lag_events{relay="webhooks"}'));
    t.true(after.has('ephemail_smtp_sessions_open'));
    t.true(after.has('ephemail_longpoll_waiters'));
  });
}
