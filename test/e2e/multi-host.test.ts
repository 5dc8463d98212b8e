import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@ephemail/core';
import nodemailer from 'nodemailer';
import { freePort, repoRoot, spawnNode, tempDir } from './support.js';

const MAIN = join(repoRoot, 'hosts/api/src/main.ts');
const KEY = `aid_${'M'.repeat(8)}${'h'.repeat(8)}_${'s'.repeat(20)}${'T'.repeat(20)}`;
const HEADERS = { authorization: `Bearer ${KEY}`, 'x-org-id': 'org_multi', 'x-project-id': 'proj_multi' };

/** Two host processes over one SQLite file, as behind a load balancer. */
const startPair = async (dir: string) => {
  const hosts = [];
  for (const name of ['a', 'b']) {
    const [port, smtpPort] = [await freePort(), await freePort()];
    const { child } = spawnNode(MAIN, [], {
      DATABASE_URL: `sqlite:${join(dir, 'shared.sqlite')}`,
      PORT: String(port),
      SMTP_PORT: String(smtpPort),
      LOG_LEVEL: 'warn',
      INBOX_DOMAIN: 'multi.test',
      BOOTSTRAP_API_KEY: KEY,
      BOOTSTRAP_ORG_ID: 'org_multi',
      BOOTSTRAP_PROJECT_ID: 'proj_multi',
      BOOTSTRAP_PLAN: 'pro',
    });
    hosts.push({ name, child, base: `http://127.0.0.1:${port}`, smtpPort });
  }
  for (const host of hosts) {
    for (let i = 0; i < 1_200; i += 1) {
      if (await fetch(`${host.base}/readyz`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return hosts;
};

const post = (base: string, path: string, body: unknown, key: string = randomUUID()) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { ...HEADERS, 'idempotency-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('multi-host: two hosts over one SQLite file share identities, idempotency and long-polls', async (t) => {
  const { dir, cleanup } = tempDir('ephemail-multi');
  t.teardown(cleanup);
  const [a, b] = await startPair(dir);
  t.teardown(() => {
    a!.child.kill('SIGKILL');
    b!.child.kill('SIGKILL');
  });

  // A webhook receiver counting signed deliveries per event id.
  const received = new Map<string, number>();
  let badSignatures = 0;
  let secret = '';
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verdict = verifyWebhook(secret, req.headers as Record<string, string>, body, new Date());
      if (!verdict.valid) badSignatures += 1;
      const id = (JSON.parse(body) as { id: string }).id;
      received.set(id, (received.get(id) ?? 0) + 1);
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  t.teardown(() => receiver.close());
  const hook = await post(a!.base, '/v1/webhooks', {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    events: ['identity.provisioned'],
  });
  t.is(hook.status, 201);
  secret = ((await hook.json()) as { secret: string }).secret;

  // Identity creation on either host is visible on both.
  const made = await Promise.all(Array.from({ length: 20 }, (_, i) => post((i % 2 ? a : b)!.base, '/v1/identities', { label: `m${i}` })));
  t.true(made.every((r) => r.status === 201));
  const totals = await Promise.all([a, b].map(async (h) => ((await (await fetch(`${h!.base}/v1/identities`, { headers: HEADERS })).json()) as { total: number }).total));
  t.deepEqual(totals, [20, 20]);
  for (let i = 0; i < 1_200 && received.size < 20; i += 1) await new Promise((r) => setTimeout(r, 50));
  t.is(received.size, 20, 'one identity.provisioned delivery per identity');
  t.true([...received.values()].every((n) => n === 1), 'no event delivered twice although both hosts run workers');
  t.is(badSignatures, 0);

  // One Idempotency-Key raced across both hosts: one identity.
  const raced = await Promise.all(Array.from({ length: 30 }, (_, i) => post((i % 2 ? a : b)!.base, '/v1/identities', { label: 'once' }, 'shared-key')));
  const ok = await Promise.all(raced.filter((r) => r.status === 201).map((r) => r.json() as Promise<{ id: string }>));
  t.true(ok.length >= 1);
  t.is(new Set(ok.map((x) => x.id)).size, 1, 'every success names the same identity');
  t.true(raced.every((r) => r.status === 201 || r.status === 409));

  // A long-poll on host A is answered by mail that host B's MX accepted.
  const identity = (await (await post(a!.base, '/v1/identities', { label: 'poll' })).json()) as { id: string; email: string };
  const waiting = fetch(`${a!.base}/v1/identities/${identity.id}/extractions/latest?wait=20`, { headers: HEADERS });
  await new Promise((r) => setTimeout(r, 200));
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: b!.smtpPort, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: 'no-reply@app.example.com', to: identity.email, subject: 'Your code', text: 'Your login code is 771204.' });
  transport.close();
  const answer = await waiting;
  t.is(answer.status, 200);
  t.is(((await answer.json()) as { redacted_value: string }).redacted_value, '7•••4');
});
