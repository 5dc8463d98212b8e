import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import express from 'express';
import { createTransport } from 'nodemailer';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { webApp } from '../../hosts/api/src/web-app.ts';
import { secretKindOf } from '../../hosts/api/web/api.ts';
import { repoRoot, tempDir } from './support.js';
import { startSmtpSink, type SunkMail } from './smtp-sink.js';
import { assertAccessible, focusedName, launchChromium, shoot, watchPage } from './web-support.js';

// The web app at `/` in a real Chromium (TESTING.md, Browser row), on a desktop and on a phone
// viewport: a free inbox whose code shows up live (masked, saying so), then sign-up by the mailed
// link, an identity and its code arriving over the SSE stream, the raw code shown and copied from
// the keyboard, and the mail read (masked, then revealed; its HTML in a sandboxed frame). Sign-in
// mail goes to a local SMTP sink, as in consumer.test.ts. `UPDATE_SCREENSHOTS=1` also writes
// docs/screenshots/*.png.

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
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
  await host?.close();
  await sink?.close();
});

const mailCode = async (to: string, code: string, html?: string) => {
  const mailer = createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  await mailer.sendMail({ from: 'no-reply@shop.example.com', to, subject: 'Your code', text: `Your login code is ${code}.`, ...(html === undefined ? {} : { html }) });
  mailer.close();
};

/** A mail as shops send them: inline styles, and a tracking image on another site. */
const htmlMail = (code: string) => `<p style="color:#c00">Your login code is <b>${code}</b>.</p><img alt="" src="http://tracker.example.com/open.png">`;

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

const viewports = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, ip: '198.51.100.10' },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, ip: '198.51.100.11' },
];

type Device = (typeof viewports)[number];

/** A free inbox, and a code mailed to it over SMTP, shown masked as it arrives, saying so. */
const freeInboxShowsMaskedCode = async (t: ExecutionContext, page: Page, device: Device) => {
  await page.getByRole('button', { name: 'Get a throwaway inbox' }).click();
  // Read once it holds the address: the element is there, empty, before the answer comes.
  const freeAddress = (await page.locator('#free-address', { hasText: '@web.test' }).textContent({ timeout: 10_000 }))!;
  t.regex(freeAddress, /@web\.test$/);
  t.truthy(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('ephemail.free')), 'the token is kept in this tab');
  await mailCode(freeAddress, '520741');
  await page.locator('#free-code', { hasText: '5•••1' }).waitFor({ timeout: 15_000 });
  t.false((await page.content()).includes('520741'), 'only the redacted code is shown');
  // The page says the free inbox masks codes (it promised them once), and shows the way to whole ones.
  t.false((await page.locator('#signed-out').textContent())!.includes('the code they mail shows up here'));
  t.regex((await page.locator('#free-masked').textContent())!, /Masked: the free inbox shows only the first and last character/);
  await assertAccessible(t, page, 'free inbox with a code');
  await shoot(page, `landing-${device.name}`);
  await page.locator('#free-masked').getByRole('link', { name: 'Sign up' }).click();
  t.is(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'account-email', 'the sign-up link lands in the form');
};

/** Sign up (a second sign-up offers a sign-in link instead), then the mailed link's page and back to `/`. */
const signUpByMailedLink = async (page: Page, device: Device) => {
  const email = `web-${device.name}-${randomUUID().slice(0, 6)}@example.org`;
  await page.getByLabel('Your email address').fill(email);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.locator('#account-outcome', { hasText: 'Open the link' }).waitFor();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.locator('#account-outcome', { hasText: 'already has an account' }).waitFor();
  await page.getByRole('button', { name: 'Send me a sign-in link instead' }).click();
  await page.locator('#account-outcome', { hasText: 'Open the link' }).waitFor();
  await page.goto(await linkFor(email, 2));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Go to your inboxes' }).click();
  await page.waitForURL(`${host.url}/`);
  await page.locator('body[data-ready="true"][data-view="signed-in"]').waitFor();
  await page.locator('#inbox-state[data-state="open"]').waitFor({ timeout: 10_000 });
};

/** An identity made from the keyboard, Show before any mail, then a code for it over the SSE stream. */
const identityReceivesCode = async (t: ExecutionContext, page: Page) => {
  await page.getByLabel('Label').fill('shop sign-up');
  await page.getByLabel('Label').press('Enter');
  // The row of the new identity, once it is drawn (the list may show a placeholder before).
  const row = page.locator('#identities-list li', { has: page.locator('.address', { hasText: '@web.test' }) }).first();
  const address = (await row.locator('.address').textContent({ timeout: 10_000 }))!;
  t.regex(address, /@web\.test$/);
  t.regex((await row.locator('.expiry').textContent())!, /left$/);
  await row.getByRole('button', { name: `Show the code or link for ${address}` }).click();
  await row.getByRole('status').filter({ hasText: 'No code or link has arrived at this address yet.' }).waitFor();
  await mailCode(address, '884120', htmlMail('884120'));
  await page.locator('#inbox-list li', { hasText: '8•••0' }).waitFor({ timeout: 15_000 });
  await row.locator('.latest', { hasText: '8•••0' }).waitFor();
  await page.locator('#notifications-list li').first().waitFor({ timeout: 15_000 });
  t.false((await page.content()).includes('884120'), 'only the redacted code is shown until asked');
  await assertAccessible(t, page, 'signed in');
  return { row, address };
};

/** From the keyboard: Tab from the identity's Copy to Show, which reveals the raw code; its Copy copies it. */
const showAndCopyCode = async (t: ExecutionContext, page: Page, row: Locator, address: string, device: Device) => {
  await row.getByRole('button', { name: `Copy ${address}` }).focus();
  await page.keyboard.press('Tab');
  t.is(await focusedName(page), `Show the code or link for ${address}`);
  await page.keyboard.press('Enter');
  await row.locator('.secret-code', { hasText: '884120' }).waitFor();
  await page.keyboard.press('Tab');
  t.is(await focusedName(page), 'Copy the code');
  await page.keyboard.press('Enter');
  await row.getByRole('status').filter({ hasText: 'Copied the code' }).waitFor();
  t.is(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), '884120');
  // The live inbox row and the notification show it too; the notification knows it is a code.
  await page.locator('#inbox-list li.extraction').getByRole('button', { name: `Show the code for ${address}` }).click();
  await page.locator('#inbox-list li.extraction .secret-code', { hasText: '884120' }).waitFor();
  await page.locator('#notifications-list li').first().getByRole('button', { name: `Show the code for ${address}` }).click();
  await page.locator('#notifications-list .secret-code', { hasText: '884120' }).waitFor();
  await assertAccessible(t, page, 'signed in, code shown');
  await shoot(page, `signed-in-${device.name}`, true);
};

/** Tab from the code's Copy reaches Mail; the dialog lists the mail; Read opens it masked, then revealed. */
const readTheMail = async (t: ExecutionContext, page: Page, row: Locator, address: string, device: Device) => {
  await row.getByRole('button', { name: 'Copy the code' }).focus();
  await page.keyboard.press('Tab');
  t.is(await focusedName(page), `Read the mail for ${address}`);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Mail for ${address}` });
  await dialog.getByRole('button', { name: /^Read “Your code” from no-reply@shop\.example\.com$/ }).focus();
  await page.keyboard.press('Enter');
  await dialog.locator('#mail-subject', { hasText: 'Your code' }).waitFor();
  t.is(await dialog.locator('#mail-from').textContent(), 'no-reply@shop.example.com');
  t.regex((await dialog.locator('#mail-text').textContent())!, /^Your login code is 8•+0\.\s*$/);
  const frame = dialog.locator('iframe#mail-html');
  t.is(await frame.getAttribute('sandbox'), '', 'the sender’s HTML may run nothing');
  const srcdoc = (await frame.evaluate((f: any) => f.srcdoc as string))!;
  t.true(srcdoc.includes(`content="default-src 'none'; img-src data:`), 'the frame’s own policy loads nothing remote');
  t.false(srcdoc.includes('884120'), 'the HTML is masked too');
  await dialog.getByRole('button', { name: 'Show codes and links' }).click();
  await dialog.locator('#mail-text', { hasText: 'Your login code is 884120.' }).waitFor();
  await page.frameLocator('iframe#mail-html').locator('b', { hasText: '884120' }).waitFor();
  t.is(await dialog.getByRole('button', { name: 'Mask codes and links' }).getAttribute('aria-pressed'), 'true');
  await assertAccessible(t, page, 'reading a mail');
  await shoot(page, `mail-${device.name}`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  t.is(await focusedName(page), `Read the mail for ${address}`, 'closing returns focus to the Mail button');
  // The live inbox's row of the mail opens it too.
  await page.locator('#inbox-list li.mail').getByRole('button', { name: /^Read the mail “Your code” for / }).click();
  await dialog.locator('#mail-subject', { hasText: 'Your code' }).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
};

/** A sign-in link arrives after the code: Show offers to open it; the code's row says a newer one came. */
const aNewerLink = async (t: ExecutionContext, page: Page, row: Locator, address: string) => {
  const link = 'https://shop.example.com/login?token=Zt7kQm2Lp9Xw4Rv8';
  const mailer = createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  await mailer.sendMail({ from: 'no-reply@shop.example.com', to: address, subject: 'Your sign-in link', text: `Sign in to Shop:\n\n${link}\n\nThe link works once.` });
  mailer.close();
  await page.locator('#inbox-list li.extraction', { hasText: 'Link https://shop.example.com/' }).waitFor({ timeout: 15_000 });
  await row.getByRole('button', { name: `Hide the code or link for ${address}` }).click();
  await row.getByRole('button', { name: `Show the code or link for ${address}` }).click();
  await row.locator('.secret-code', { hasText: link }).waitFor();
  const open = row.getByRole('link', { name: 'Open link' });
  t.is(await open.getAttribute('href'), link);
  t.is(await open.getAttribute('rel'), 'noopener noreferrer');
  const codeRow = page.locator('#inbox-list li.extraction', { hasText: '8•••0' });
  await codeRow.getByRole('button', { name: `Hide the code for ${address}` }).click();
  await codeRow.getByRole('button', { name: `Show the code for ${address}` }).click();
  await codeRow.getByText('A newer link arrived since; the latest is:').waitFor();
};

/** Upgrade goes to the provider's checkout (on this host); sign out returns to the landing view. */
const upgradeThenSignOut = async (t: ExecutionContext, page: Page, context: BrowserContext) => {
  await page.getByRole('button', { name: 'Upgrade' }).click();
  await page.waitForURL((url) => url.pathname !== '/');
  t.is(new URL(page.url()).origin, host.url, 'the sandbox checkout is on this host');
  await page.goto(`${host.url}/`);
  await page.locator('body[data-view="signed-in"]').waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.locator('body[data-view="signed-out"]').waitFor();
  t.is((await context.request.get(`${host.url}/v1/consumer/identities`)).status(), 401);
};

for (const device of viewports) {
  test(`web app (${device.name}): a free inbox shows its code live, masked and saying so; a person signs up by the mailed link, makes an identity, sees its code arrive over the stream, shows and copies the raw code from the keyboard, reads the mail, and is told when a newer secret came`, async (t) => {
    const context = await browser.newContext({ viewport: device.viewport, isMobile: device.isMobile, hasTouch: device.isMobile, deviceScaleFactor: 1, extraHTTPHeaders: { 'x-forwarded-for': device.ip } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.url });
    const page = await context.newPage();
    const seen = watchPage(page, host.url);
    try {
      const landing = await page.goto(`${host.url}/`);
      t.is(landing?.status(), 200);
      t.regex(landing?.headers()['content-security-policy'] ?? '', /^default-src 'self'/);
      t.is(landing?.headers()['cache-control'], 'no-cache');
      await page.locator('body[data-ready="true"][data-view="signed-out"]').waitFor();
      await assertAccessible(t, page, 'landing');
      await freeInboxShowsMaskedCode(t, page, device);
      await signUpByMailedLink(page, device);
      const { row, address } = await identityReceivesCode(t, page);
      await showAndCopyCode(t, page, row, address, device);
      await readTheMail(t, page, row, address, device);
      await aNewerLink(t, page, row, address);
      await upgradeThenSignOut(t, page, context);
      t.deepEqual(seen.elsewhere.filter((url) => !seen.stopped.includes(url)), [], 'nothing is asked of any other origin (the mail’s tracker was stopped by the policy)');
      t.deepEqual(seen.refused, [], 'nothing of the page was refused by the Content-Security-Policy');
      t.true(seen.mailRefused.some((text) => text.includes('http://tracker.example.com/open.png')), 'the mail’s remote image was refused');
    } finally {
      await context.close();
    }
  });
}

test('web app: loading `/` signed out makes no failing request and logs no console error; /favicon.ico answers 200 with the page’s security headers', async (t) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.12' } });
  const page = await context.newPage();
  const errors: string[] = [];
  const failed: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
  try {
    await page.goto(`${host.url}/`);
    await page.locator('body[data-ready="true"][data-view="signed-out"]').waitFor();
    t.deepEqual(failed, [], 'no request failed');
    t.deepEqual(errors, [], 'the console stayed clean');
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const icon = await context.request.get(`${host.url}${path}`);
      t.is(icon.status(), 200, path);
      t.is(icon.headers()['content-type'], 'image/svg+xml; charset=utf-8');
      t.regex(icon.headers()['content-security-policy'] ?? '', /^default-src 'self'/);
      t.is(icon.headers()['x-content-type-options'], 'nosniff');
      t.regex(await icon.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  } finally {
    await context.close();
  }
});

test('web app: a notification names its kind from secret_type, else from the older type', (t) => {
  t.is(secretKindOf({ type: 'extraction.completed', secret_type: 'magic_link' }), 'magic_link');
  t.is(secretKindOf({ type: 'extraction.completed', secret_type: 'otp' }), 'otp');
  t.is(secretKindOf({ type: 'code_received' }), 'otp');
  t.is(secretKindOf({ type: 'link_received' }), 'magic_link');
  t.is(secretKindOf({ type: 'extraction.completed' }), undefined, 'no kind is guessed from the event type');
});

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
