import { expect, test as base, type Page } from '@playwright/test';
import { createEphemailClient, type EphemailClient, type Identity } from '@ephemail/client';

const setting = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set: run the specs with \`npx playwright test\` (global-setup.ts sets it)`);
  return value;
};

/** Each test gets the ephemail client and a fresh disposable identity, squashed afterwards. */
const test = base.extend<{ ephemail: EphemailClient; identity: Identity }>({
  // Playwright reads the fixture's parameters from its source: the empty pattern is required.
  // eslint-disable-next-line no-empty-pattern
  ephemail: async ({}, use) => {
    await use(
      createEphemailClient({
        baseUrl: setting('EPHEMAIL_URL'),
        apiKey: setting('EPHEMAIL_API_KEY'),
        orgId: setting('EPHEMAIL_ORG_ID'),
        projectId: setting('EPHEMAIL_PROJECT_ID'),
      }),
    );
  },
  identity: async ({ ephemail }, use, testInfo) => {
    const identity = await ephemail.createIdentity({ label: `playwright: ${testInfo.title}`, ttl_hours: 1 });
    await use(identity);
    await ephemail.squashIdentity(identity.id);
  },
});

test.beforeEach(async ({ page }) => {
  await page.goto(setting('DEMO_SITE_URL'));
});

const startSignup = async (page: Page, email: string) => {
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
};

test('signs up with a disposable address and the code mailed to it', async ({ page, ephemail, identity }) => {
  await startSignup(page, identity.email);
  const { code, redacted } = await ephemail.waitForCode(identity.id, { timeoutMs: 30_000 });
  expect(code, `the code (${redacted}) needs secrets:read to be revealed`).toMatch(/^\d{6}$/);
  await page.getByLabel('6-digit code').fill(code!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
  await expect(page.getByText(identity.email)).toBeVisible();
});

test('a wrong code keeps the sign-up on the code page with an error', async ({ page, ephemail, identity }) => {
  await startSignup(page, identity.email);
  const { code } = await ephemail.waitForCode(identity.id, { timeoutMs: 30_000 });
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await page.getByLabel('6-digit code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText(/not right/);
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toHaveCount(0);
  await page.getByLabel('6-digit code').fill(code!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
});
