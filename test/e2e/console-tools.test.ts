import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Page } from 'playwright-core';
import { consoleFixture, DESKTOP, mail, newIdentity, newKey, PHONE, signIn } from './console-support.js';
import { assertAccessible, shoot } from './web-support.js';

// The team console's tools in a real Chromium against the real host (see console.test.ts for the
// identities and their mail): webhook endpoints and their deliveries, usage and custom domains
// (on a real name server), and reliability runs against an app of one's own on loopback.

const { domain, host, open, seedIdentities } = consoleFixture(test);

/** A webhook receiver on loopback that answers 200 and keeps what it was sent. */
const startReceiver = async () => {
  const received: { id: string; type: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(JSON.parse(body) as { id: string; type: string });
      res.writeHead(200).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => new Promise((r) => server.close(r)) };
};

/** Presses Refresh until the deliveries table shows `rows` rows in `state` (the worker delivers on its own schedule). */
const deliveriesIn = async (page: Page, state: string, rows: number) => {
  for (let i = 0; i < 100; i += 1) {
    if ((await page.locator(`#deliveries tr[data-state="${state}"]`).count()) >= rows) return;
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForTimeout(100);
  }
  throw new Error(`no ${rows} ${state} deliveries`);
};

test('console (phone, 360 px): a webhook endpoint is added (its secret shown once), a mail is delivered to it with status and duration, the delivery is replayed, and the secret rotated', async (t) => {
  const receiver = await startReceiver();
  const key = await newKey(host(), ['identities:read', 'identities:write', 'webhooks:read', 'webhooks:write']);
  const { context, page } = await open(PHONE);
  try {
    await signIn(page, key);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('button', { name: 'Webhooks' }).click();
    await page.locator('body[data-view="webhooks"]').waitFor();
    t.is(await page.getByRole('button', { name: 'Webhooks' }).getAttribute('aria-current'), 'page');
    await page.getByLabel('URL').fill(receiver.url);
    t.true(await page.getByRole('checkbox', { name: 'email.received' }).isChecked());
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.locator('#hook-secret-value', { hasText: 'whsec_' }).textContent())!;
    t.regex(secret, /^whsec_[A-Za-z0-9]{40}$/);
    t.is(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'hook-secret', 'the secret is where focus goes');
    await page.getByRole('button', { name: 'I have kept it' }).click();
    t.true(await page.locator('#hook-secret').isHidden());
    t.false((await page.content()).includes(secret), 'the secret is gone from the page');
    const row = page.locator('#hooks-list li').first();
    t.regex((await row.textContent())!, new RegExp(`whsec_••••${secret.slice(-4)}`));

    await seedIdentities(key, 1);
    const listed = await fetch(`${host().url}/v1/identities?limit=1`, { headers: { authorization: `Bearer ${key.key}`, 'x-org-id': key.orgId, 'x-project-id': key.projects[0]! } });
    const identity = ((await listed.json()) as { items: { email: string }[] }).items[0]!;
    await mail(host(), { to: identity.email, subject: 'Welcome', text: 'Hello there.' });
    await row.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
    // Focus moves to the deliveries' heading once they are drawn.
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'deliveries-title');
    await deliveriesIn(page, 'delivered', 1);
    const delivered = page.locator('#deliveries tr[data-state="delivered"]').first();
    t.regex((await delivered.textContent())!, /^email\.receiveddelivered1200\d+ ms/);
    await delivered.getByRole('button', { name: /^Replay email\.received evt_/ }).click();
    await page.getByRole('status').filter({ hasText: 'Replay of email.received queued.' }).waitFor();
    await deliveriesIn(page, 'delivered', 2);
    t.regex((await page.locator('#deliveries tr').first().textContent())!, /\(replay\)/);
    t.is(receiver.received.length, 2);
    t.is(receiver.received[1]!.id, receiver.received[0]!.id, 'the replay carries the same event');
    await assertAccessible(t, page, 'webhook deliveries (phone)');
    const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
    const wide = await page.evaluate(() => [...(globalThis as any).document.querySelectorAll('*')].filter((e: any) => e.getBoundingClientRect().right > 361).map((e: any) => `${e.tagName}#${e.id}.${e.className}`).slice(0, 8));
    t.true(width <= 360, `nothing wider than the phone (${width} px): ${wide.join(' ')}`);
    await shoot(page, 'console-webhooks-phone', true);

    await row.getByRole('button', { name: `Rotate the secret of ${receiver.url}` }).click();
    const rotated = (await page.locator('#hook-secret-value', { hasText: 'whsec_' }).textContent())!;
    t.not(rotated, secret);
    await page.locator('#hooks-list li', { hasText: `whsec_••••${rotated.slice(-4)}` }).waitFor();
  } finally {
    await context.close();
    await receiver.close();
  }
});

test('console (desktop): usage shows the month against the plan; a custom domain is registered with its two DNS records, and Verify says which one DNS lacks', async (t) => {
  const key = await newKey(host(), ['identities:read', 'identities:write', 'domains:read', 'domains:write', 'billing:read']);
  const { context, page, seen } = await open(DESKTOP);
  await signIn(page, key);
  await page.getByRole('button', { name: 'Domains and usage' }).click();
  await page.locator('body[data-view="project"]').waitFor();
  await page.getByRole('progressbar', { name: 'Live identities' }).waitFor();
  t.regex((await page.locator('#usage').textContent())!, /Live identities\s*0 of [\d,]+.*API calls\s*[\d,]+ of [\d,]+.*Custom domains\s*0 of \d+/);
  await page.getByRole('textbox', { name: 'Domain', exact: true }).fill(domain);
  await page.getByRole('button', { name: 'Register domain' }).click();
  await page.getByRole('status').filter({ hasText: `${domain} registered` }).waitFor();
  const row = page.locator('#domains li', { hasText: domain });
  t.regex((await row.textContent())!, new RegExp(`MX${domain}10 mx\\.console\\.testpending.*TXT_service-verify\\.${domain}service-verify=[A-Za-z0-9]{32}pending`));
  await row.getByRole('button', { name: `Verify ${domain}` }).click();
  await row.getByRole('status').filter({ hasText: 'Not verified yet: a record is missing.' }).waitFor();
  const checked = (await row.locator('table').nth(1).textContent())!;
  t.regex(checked, /MX.*verified.*TXT.*missing/);
  await assertAccessible(t, page, 'domains and usage');
  await shoot(page, 'console-domains-desktop', true);
  t.deepEqual([seen.elsewhere, seen.stopped, seen.refused], [[], [], []]);
  await context.close();
});

/** An app of one's own, on loopback: asked to reset a password, it mails a code to the address over SMTP. */
const startTargetApp = async () => {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const { email } = JSON.parse(body) as { email: string };
      res.writeHead(200).end('{}');
      void mail(host(), { to: email, subject: 'Reset your password', text: 'Your password reset code is 604913.' });
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/forgot`, close: () => new Promise((r) => server.close(r)) };
};

test('console (desktop): a reliability run started on an identity is followed to completed, as a timeline with the app’s status, the delivery time and the masked code', async (t) => {
  const app = await startTargetApp();
  const key = await newKey(host(), ['identities:read', 'identities:write', 'reliability:write']);
  const { context, page } = await open(DESKTOP);
  try {
    await newIdentity(page, key, 'password reset');
    await page.getByLabel("Your app's endpoint").fill(app.url);
    await page.getByRole('button', { name: 'Start run' }).click();
    const run = page.locator('#runs li.row').first();
    // The page follows the run by itself (it polls the run each second until it ends).
    await run.locator('.badge', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
    const text = (await run.textContent())!;
    t.regex(text, /password reset → http:\/\/127\.0\.0\.1:\d+\/forgot/);
    t.regex(text, /triggered \(your app answered 200\)/);
    t.regex(text, /mail received after \d+ ms/);
    t.regex(text, /completed otp 6•••3 \(\d+ %\)/);
    t.false((await page.content()).includes('604913'));
    await assertAccessible(t, page, 'a completed reliability run');
  } finally {
    await context.close();
    await app.close();
  }
});
