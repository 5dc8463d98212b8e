import { randomUUID } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import { createTransport } from 'nodemailer';
import type { Page } from 'playwright-core';
import type { RunningHost } from '@ephemail/host-api';

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
