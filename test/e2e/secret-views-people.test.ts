import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { startSmtpSink } from './smtp-sink.js';
import { MAILS, holdsSecret, describeLeaks, leaksIn, sendSecretMail, until, type Leak } from './secret-views-support.js';

// The regression test, on the side of those who hold no API key: the anonymous free tier
// (its identity and its extraction) and a signed-in person (the inbox's server-sent events, the
// messages read without reveal, the notifications), each sent the table of mails over SMTP.

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let host: RunningHost;
test.before(async () => {
  sink = await startSmtpSink();
  host = await startHost(
    loadConfig({
      DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'people-views.test',
      SMTP_OUTBOUND_URL: sink.url, MAIL_FROM: 'ephemail <no-reply@people-views.test>', FREE_REQUESTS_PER_MINUTE: '1000',
    }),
  );
});
test.after.always(async () => {
  await host?.close();
  await sink?.close();
});

/** A request from the loopback address `from`: the free tier counts one identity per client address. */
const from = (address: string, method: string, path: string, body?: unknown) =>
  new Promise<{ status: number; text: string; json: any }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest({ host: '127.0.0.1', port: host.port, path, method, localAddress: address, headers: payload === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, json: JSON.parse(text || 'null') });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });

test('secret views (free tier): each mail of the table to its own free identity; its extraction and its identity show no code, revealed or not', async (t) => {
  const leaks: Leak[] = [];
  await Promise.all(
    MAILS.map(async (mail, i) => {
      const address = `127.0.0.${40 + i}`;
      const created = await from(address, 'POST', '/v1/free/identity', { label: 'free views' });
      t.is(created.status, 201, created.text);
      const { id, token, email } = created.json;
      await sendSecretMail(host, email, mail);
      const ready = await until(() => from(address, 'GET', `/v1/free/identity/${id}/extraction?token=${token}`), (r) => r.status !== 202);
      t.is(ready.status, 200, `${mail.name}: ${ready.text}`);
      // The control: what the free tier shows is the masked form of this mail's code.
      if (ready.json.has_secret !== true || ready.json.redacted_value !== `${mail.code[0]}•••${mail.code.at(-1)}`) t.log(`"${mail.name}": the free extraction is ${ready.text}`);
      t.true(ready.json.has_secret, `${mail.name}: a secret was found`);
      leaks.push(...leaksIn('GET /v1/free/identity/{id}/extraction', ready.text, [mail]));
      for (const path of [`/v1/free/identity/${id}?token=${token}`, `/v1/free/identity/${id}/extraction?token=${token}&reveal=true`]) {
        leaks.push(...leaksIn(`GET ${path.replace(id, '{id}').replace(token, '{token}')}`, (await from(address, 'GET', path)).text, [mail]));
      }
    }),
  );
  t.deepEqual(leaks, [], describeLeaks(leaks));
});

/** A person signed up and signed in by the link mailed to the sink: their bearer header. */
const person = async (): Promise<Record<string, string>> => {
  const email = `viewer-${randomUUID().slice(0, 6)}@example.org`;
  const post = (path: string, body: unknown) => fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if ((await post('/v1/consumer/signup', { email })).status !== 200) throw new Error('sign-up failed');
  const mailed = await until(async () => sink.mails.find((m) => m.to === email), (m) => m !== undefined);
  const token = /token=(cml_[A-Za-z0-9]+)/.exec((mailed?.text ?? '').replace(/=\r\n/g, '').replace(/=3D/g, '='))?.[1];
  const verified = (await (await post('/v1/consumer/verify', { token })).json()) as { session_token: string };
  return { authorization: `Bearer ${verified.session_token}` };
};

/** The inbox stream's events until `count` extractions arrived or the budget ran out. */
const streamed = async (res: Response, count: number, opened: () => Promise<void>, ms = 45_000): Promise<string[]> => {
  const reader = res.body!.getReader();
  let sending: Promise<void> | undefined;
  const frames: string[] = [];
  let buffer = '';
  const deadline = Date.now() + ms;
  const stop = new Promise<{ done: true; value: undefined }>((r) => setTimeout(() => r({ done: true, value: undefined }), ms));
  while (frames.filter((f) => f.includes('event: extraction.completed')).length < count && Date.now() < deadline) {
    const chunk = await Promise.race([reader.read(), stop]);
    if (chunk.done) break;
    buffer += new TextDecoder().decode(chunk.value);
    // The stream starts at the newest event once it said `retry:`: mail sent from then on is in it.
    sending ??= opened();
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop()!;
    frames.push(...blocks.filter((b) => b.includes('event: ')));
  }
  await reader.cancel();
  await sending;
  return frames;
};

test('secret views (a person): the inbox stream, the messages read without reveal and the notifications show no code of the table', async (t) => {
  const bearer = await person();
  const api = async (path: string) => (await fetch(`${host.url}${path}`, { headers: bearer })).text();
  const identity = (await (await fetch(`${host.url}/v1/consumer/identities`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'views' }) })).json()) as { id: string; email: string };
  const stream = await fetch(`${host.url}/v1/consumer/inbox`, { headers: bearer });
  t.is(stream.status, 200);
  const events = await streamed(stream, MAILS.length, async () => {
    for (const mail of MAILS) await sendSecretMail(host, identity.email, mail);
  });
  t.is(events.filter((f) => f.includes('event: inbound.received')).length, MAILS.length, 'the stream shows every mail');
  t.is(events.filter((f) => f.includes('event: extraction.completed')).length, MAILS.length, 'and every code, redacted');
  const leaks = events.flatMap((frame) => leaksIn('GET /v1/consumer/inbox (SSE)', frame.split('\n').find((l) => l.startsWith('data: '))!.slice(6)));

  const base = `/v1/consumer/identities/${identity.id}`;
  const page = JSON.parse(await api(`${base}/messages?limit=50`)) as { items: { id: string; subject: string }[] };
  t.is(page.items.length, MAILS.length);
  leaks.push(...leaksIn(`GET ${base}/messages`, page));
  for (const item of page.items) leaks.push(...leaksIn('GET /v1/consumer/identities/{id}/messages/{msg}', await api(`${base}/messages/${item.id}`)));
  leaks.push(...leaksIn('GET /v1/consumer/notifications', await api('/v1/consumer/notifications?limit=50')));
  leaks.push(...leaksIn('GET /v1/consumer/identities', await api('/v1/consumer/identities')));
  t.deepEqual(leaks, [], describeLeaks(leaks));

  // The control: the owner asking to reveal sees each code in the message it came in.
  for (const item of page.items) {
    const revealed = JSON.parse(await api(`${base}/messages/${item.id}?reveal=true`)) as { subject: string };
    const mail = MAILS.find((m) => m.subject === revealed.subject)!;
    t.true(holdsSecret(JSON.stringify(revealed), mail.code), `${mail.name}: revealed to its owner`);
  }
});
