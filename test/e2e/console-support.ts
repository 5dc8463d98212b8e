import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type test from 'ava';
import type { ExecutionContext } from 'ava';
import { createTransport } from 'nodemailer';
import type { Browser, Page } from 'playwright-core';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { startDnsmasq, type Dnsmasq } from '../../adapters/mail-auth/test/dnsmasq.js';
import { repoRoot } from './support.js';
import { launchChromium, watchPage } from './web-support.js';

// What the team console's Chromium tests share: keys made for each test (an organization of its
// own), signing in through the form, and mail sent over SMTP to the host's MX on loopback.

export interface Key {
  readonly key: string;
  readonly orgId: string;
  readonly projects: readonly string[];
}

/** A fresh organization and an API key for its projects. */
export const newKey = async (host: RunningHost, scopes: string[], projectCount = 1): Promise<Key> => {
  const orgId = `org_${randomUUID().slice(0, 8)}`;
  const projects = Array.from({ length: projectCount }, (_, i) => `proj_${orgId.slice(4)}_${i + 1}`);
  const created = await host.ephemail.auth.createApiKey({ orgId, projectIds: projects, scopes, plan: 'growth' });
  if (created._tag === 'Left') throw new Error(`key not created: ${created.left._tag}`);
  return { key: created.right.key, orgId, projects };
};

/** Types the key and submits from the keyboard; with several projects, picks `project`. */
export const signIn = async (page: Page, key: Key, project = key.projects[0]!) => {
  await page.getByLabel('API key').fill(key.key);
  await page.getByLabel('API key').press('Enter');
  if (key.projects.length > 1) {
    await page.getByRole('radio', { name: project }).check();
    await page.getByRole('button', { name: 'Open project' }).click();
  }
  await page.locator('body[data-view="identities"]').waitFor();
};

/** Sends one mail to the host's MX over SMTP. */
export const mail = async (host: RunningHost, message: { to: string; subject: string; text: string; html?: string; attachments?: { filename: string; content: string }[] }) => {
  const mailer = createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true });
  await mailer.sendMail({ from: 'Shop <no-reply@shop.example.com>', ...message });
  mailer.close();
};

/** The web storage and cookies of the page: the console keeps nothing there. */
export const storedByPage = async (page: Page): Promise<string> => {
  const stored = await page.evaluate(() => {
    const g = globalThis as any;
    return JSON.stringify([Object.entries(g.localStorage), Object.entries(g.sessionStorage), g.document.cookie]);
  });
  const cookies = await page.context().cookies();
  return `${stored} ${JSON.stringify(cookies)}`;
};

/** The headers `/` and `/console` must share (ADR 0041). */
export const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy'] as const;

export const sameSecurityHeaders = async (t: ExecutionContext, base: string, path: string) => {
  const [home, page] = await Promise.all([fetch(`${base}/`), fetch(`${base}${path}`)]);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.is(page.headers.get('cache-control'), 'no-cache');
  for (const name of SECURITY_HEADERS) t.is(page.headers.get(name), home.headers.get(name), name);
  t.regex(page.headers.get('content-security-policy') ?? '', /^default-src 'self';/);
  return page.text();
};

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 360, height: 780 };

/**
 * What a console test file runs against: the built bundle, a name server publishing the MX (not
 * the TXT record) of `domain`, the host using it, and Chromium; each stopped after the file.
 */
export const consoleFixture = (ava: typeof test) => {
  // A custom domain whose MX is published and whose TXT record is not, on a real name server.
  const domain = `d${randomUUID().slice(0, 8)}.example.org`;
  let running: RunningHost | undefined;
  let browser: Browser | undefined;
  let dns: Dnsmasq | undefined;
  ava.before(async () => {
    // Against the built bundle, as `npm start` serves it.
    execFileSync(process.execPath, [join(repoRoot, 'hosts/api/scripts/build-web.mjs')], { stdio: 'ignore' });
    dns = await startDnsmasq({ localDomains: [domain], mx: [[domain, 'mx.console.test', 10]] });
    running = await startHost(
      loadConfig({ DATABASE_URL: 'memory:', PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'console.test', MX_HOST: 'mx.console.test', DNS_SERVERS: dns.server }),
    );
    browser = await launchChromium();
  });
  ava.after.always(async () => {
    await browser?.close();
    await running?.close();
    await dns?.stop();
  });
  const host = (): RunningHost => {
    if (running === undefined) throw new Error('the host is not started: call from a test');
    return running;
  };
  /** A fresh browser context at `viewport`, on /console once the page is ready. */
  const open = async (viewport: { width: number; height: number }, extra: { acceptDownloads?: boolean } = {}) => {
    const context = await browser!.newContext({ viewport, ...extra });
    const page = await context.newPage();
    const seen = watchPage(page, host().url);
    await page.goto(`${host().url}/console`);
    await page.locator('body[data-ready="true"]').waitFor();
    return { context, page, seen };
  };
  /** Makes identities through the API, as a test runner would, for the list to page through. */
  const seedIdentities = async (key: Key, count: number) => {
    const tenant = { authorization: `Bearer ${key.key}`, 'x-org-id': key.orgId, 'x-project-id': key.projects[0]!, 'content-type': 'application/json' };
    for (let i = 0; i < count; i += 1) {
      const res = await fetch(`${host().url}/v1/identities`, { method: 'POST', headers: { ...tenant, 'idempotency-key': `seed-${i}` }, body: JSON.stringify({ label: `seeded ${i}` }) });
      if (res.status !== 201) throw new Error(`seed ${i}: ${res.status}`);
    }
  };
  return { domain, host, open, seedIdentities };
};

/** Signs in, creates an identity from the form and answers its address, with the identity page open. */
export const newIdentity = async (page: Page, key: Key, label: string): Promise<string> => {
  await signIn(page, key);
  await page.getByLabel('Label', { exact: true }).fill(label);
  await page.getByLabel('Label', { exact: true }).press('Enter');
  await page.locator('body[data-view="identity"]').waitFor();
  await page.locator('#live-state[data-state="open"]').waitFor();
  return (await page.locator('#identity-email').textContent())!;
};
