import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import express from 'express';
import { createTransport } from 'nodemailer';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { webApp } from '../../hosts/api/src/web-app.ts';
import { repoRoot, tempDir } from './support.js';
import { startSmtpSink, type SunkMail } from './smtp-sink.js';

// The web app at `/` in a real Chromium (TESTING.md, Browser row), on a desktop and on a phone
// viewport: a free inbox whose code shows up live, then sign-up by the mailed link, an identity
// and its code arriving over the SSE stream. Sign-in mail goes to a local SMTP sink, as in
// consumer.test.ts. `UPDATE_SCREENSHOTS=1` also writes docs/screenshots/*.png.

const screenshots = process.env.UPDATE_SCREENSHOTS === '1';
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let sent: SunkMail[] = [];

let host: RunningHost;
let browser: Browser;
test.before(async () => {
  // Tests run against the built bundle, as `npm start` serves it.
  execFileSync(process.execPath, [join(repoRoot, 'hosts/api/scripts/build-web.mjs')], { stdio: 'ignore' });
  sink = await startSmtpSink();
  sent = sink.mails;
  host = await startHost(
    loadConfig({
      DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'web.test',
      SMTP_OUTBOUND_URL: sink.url, MAIL_FROM: 'ephemail <no-reply@web.test>',
      // Each viewport is its own "client address" (one free inbox per address): the browser
      // contexts send X-Forwarded-For, trusted from loopback only.
      TRUST_PROXY: 'loopback', FREE_REQUESTS_PER_MINUTE: '1000',
    }),
  );
  // launch() gives Chromium a fresh temporary profile of its own (it refuses --user-data-dir).
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
test.after.always(async () => {
  await browser?.close();
  await host?.close();
  await sink?.close();
});

const mailCode = async (to: string, code: string) => {
  const mailer = createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  await mailer.sendMail({ from: 'no-reply@shop.example.com', to, subject: 'Your code', text: `Your login code is ${code}.` });
  mailer.close();
};

const linkFor = async (email: string, count: number): Promise<string> => {
  for (let i = 0; i < 1_200; i += 1) {
    const mails = sent.filter((m) => m.to === email);
    const text = mails.length >= count ? mails[count - 1]!.text.replace(/=\r\n/g, '').replace(/=3D/g, '=') : '';
    const link = /(http:\/\/\S+\/consumer\/verify\?token=cml_[A-Za-z0-9]+)/.exec(text)?.[1];
    if (link !== undefined) return link;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no sign-in link mailed to ${email}`);
};

const axeSource = readFileSync(join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core in the page. Evaluated over the DevTools protocol: the page's CSP forbids inline scripts. */
const assertAccessible = async (t: ExecutionContext, page: Page, screen: string) => {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // The page's globals, untyped here: the test project has no DOM lib.
    const result = await (globalThis as any).axe.run((globalThis as any).document);
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(' ')) }));
  });
  const severe = violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical');
  t.deepEqual(severe, [], `${screen}: ${JSON.stringify(severe)}`);
};

const shoot = async (page: Page, name: string) => {
  if (screenshots) await page.screenshot({ path: join(repoRoot, 'docs/screenshots', `${name}.png`) });
};

const viewports = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, ip: '198.51.100.10' },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, ip: '198.51.100.11' },
];

for (const device of viewports) {
  test(`web app (${device.name}): a free inbox shows its code live; a person signs up by the mailed link, makes an identity and sees its code arrive over the stream`, async (t) => {
    const context = await browser.newContext({ viewport: device.viewport, isMobile: device.isMobile, hasTouch: device.isMobile, deviceScaleFactor: 1, extraHTTPHeaders: { 'x-forwarded-for': device.ip } });
    const page = await context.newPage();
    const elsewhere: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(`${host.url}/`)) elsewhere.push(request.url());
    });
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    try {
      const landing = await page.goto(`${host.url}/`);
      t.is(landing?.status(), 200);
      t.regex(landing?.headers()['content-security-policy'] ?? '', /^default-src 'self'/);
      t.is(landing?.headers()['cache-control'], 'no-cache');
      await page.locator('body[data-ready="true"][data-view="signed-out"]').waitFor();
      await assertAccessible(t, page, 'landing');

      // A free inbox, and a code mailed to it over SMTP, shown redacted as it arrives.
      await page.getByRole('button', { name: 'Get a throwaway inbox' }).click();
      // Read once it holds the address: the element is there, empty, before the answer comes.
      const freeAddress = (await page.locator('#free-address', { hasText: '@web.test' }).textContent({ timeout: 10_000 }))!;
      t.regex(freeAddress, /@web\.test$/);
      t.truthy(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('ephemail.free')), 'the token is kept in this tab');
      await mailCode(freeAddress, '520741');
      await page.locator('#free-code', { hasText: '5•••1' }).waitFor({ timeout: 15_000 });
      t.false((await page.content()).includes('520741'), 'only the redacted code is shown');
      await assertAccessible(t, page, 'free inbox with a code');
      await shoot(page, `landing-${device.name}`);

      // Sign up; a second sign-up with the same address offers a sign-in link instead.
      const email = `web-${device.name}-${randomUUID().slice(0, 6)}@example.org`;
      await page.getByLabel('Your email address').fill(email);
      await page.getByRole('button', { name: 'Sign up', exact: true }).click();
      await page.locator('#account-outcome', { hasText: 'Open the link' }).waitFor();
      await page.getByRole('button', { name: 'Sign up', exact: true }).click();
      await page.locator('#account-outcome', { hasText: 'already has an account' }).waitFor();
      await page.getByRole('button', { name: 'Send me a sign-in link instead' }).click();
      await page.locator('#account-outcome', { hasText: 'Open the link' }).waitFor();
      const link = await linkFor(email, 2);

      // The mailed link's page, its button, and the way back to `/`.
      await page.goto(link);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Go to your inboxes' }).click();
      await page.waitForURL(`${host.url}/`);
      await page.locator('body[data-ready="true"][data-view="signed-in"]').waitFor();
      await page.locator('#inbox-state[data-state="open"]').waitFor({ timeout: 10_000 });

      // An identity made from the keyboard, then a code for it arriving over the SSE stream.
      await page.getByLabel('Label').fill('shop sign-up');
      await page.getByLabel('Label').press('Enter');
      // The row of the new identity, once it is drawn (the list may show a placeholder before).
      const row = page.locator('#identities-list li', { has: page.locator('.address', { hasText: '@web.test' }) }).first();
      const address = (await row.locator('.address').textContent({ timeout: 10_000 }))!;
      t.regex(address, /@web\.test$/);
      t.regex((await row.locator('.expiry').textContent())!, /left$/);
      await mailCode(address, '884120');
      await page.locator('#inbox-list li', { hasText: '8•••0' }).waitFor({ timeout: 15_000 });
      await row.locator('.latest', { hasText: '8•••0' }).waitFor();
      await page.locator('#notifications-list li').first().waitFor({ timeout: 15_000 });
      t.false((await page.content()).includes('884120'), 'only the redacted code is shown');
      await assertAccessible(t, page, 'signed in');
      await shoot(page, `signed-in-${device.name}`);

      // Upgrade goes to the provider's checkout; sign out returns to the landing view.
      await page.getByRole('button', { name: 'Upgrade' }).click();
      await page.waitForURL((url) => url.pathname !== '/');
      t.is(new URL(page.url()).origin, host.url, 'the sandbox checkout is on this host');
      await page.goto(`${host.url}/`);
      await page.locator('body[data-view="signed-in"]').waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.locator('body[data-view="signed-out"]').waitFor();
      t.is((await context.request.get(`${host.url}/v1/consumer/identities`)).status(), 401);

      t.deepEqual(elsewhere, [], 'the page asks nothing of any other origin');
      t.deepEqual(refused, [], 'nothing was refused by the Content-Security-Policy');
    } finally {
      await context.close();
    }
  });
}

test('web app: without a build, `/` answers 503 saying to run npm run build; the API paths fall through', async (t) => {
  const empty = tempDir('web-app-unbuilt');
  const app = express().use(webApp({ dir: empty.dir })).use((_req, res) => void res.status(404).send('api'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const page = await fetch(`${base}/`);
    t.is(page.status, 503);
    t.regex(await page.text(), /npm run build/);
    t.regex(page.headers.get('content-security-policy') ?? '', /^default-src 'self'/);
    t.is((await fetch(`${base}/v1/anything`)).status, 404);
  } finally {
    server.close();
    empty.cleanup();
  }
});
