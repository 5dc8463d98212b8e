import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import type { Page } from 'playwright-core';
import { consoleFixture, DESKTOP, signIn, type Key } from './console-support.js';
import { READER_SCOPES, REVEALER_SCOPES, coreOf, deliverTable, extractedOnly, holdsSecret, describeLeaks, leaksIn, type Delivered, type Leak } from './secret-views-support.js';

// The regression test for the team console in a real Chromium: the table of mails sent
// over SMTP, each to its own identity, then each identity's page (mail list, code found and its
// reasons, events) and its message (subject, names, text, headers, attachments, and the text of
// the sandboxed frame the mail's HTML is drawn in) as a key without `secrets:read` sees them,
// read with the oracle. A key with `secrets:read` that presses Show sees the codes (the control).

const { host, open } = consoleFixture(test);

/** A reader and a revealer of one fresh organization, and the table delivered to it. */
const tableTenant = async (): Promise<{ reader: Key; revealer: Key; delivered: Delivered[] }> => {
  const suffix = randomUUID().slice(0, 8);
  const orgId = `org_${suffix}`;
  // Project ids are global: each organization has its own.
  const projects = [`proj_${suffix}`];
  const keyOf = async (scopes: string[]): Promise<Key> => {
    const created = await host().ephemail.auth.createApiKey({ orgId, projectIds: projects, scopes, plan: 'growth' });
    if (E.isLeft(created)) throw new Error(created.left._tag);
    return { key: created.right.key, orgId, projects };
  };
  const reader = await keyOf(READER_SCOPES);
  const revealer = await keyOf(REVEALER_SCOPES);
  return { reader, revealer, delivered: await deliverTable(host(), { url: host().url, org: orgId, project: projects[0]! }, revealer.key) };
};

/** Opens the identity of `d` from the list, and its message; answers what the page shows on the way. */
const readIdentity = async (page: Page, d: Delivered): Promise<{ identityPage: string; messagePage: string; frameText: string; srcdoc: string }> => {
  await page.locator('#identity-list').getByRole('button', { name: d.mail.name, exact: true }).click();
  await page.locator('body[data-view="identity"]').waitFor();
  await page.locator('#extraction code.masked').first().waitFor();
  await page.locator('#mail-list li button').first().waitFor();
  await page.locator('#events li[data-type="email.received"]').first().waitFor();
  await page.locator('#extraction button[data-mode="why"]').click();
  await page.locator('#extraction .why-list details').first().waitFor();
  const identityPage = await page.locator('body').innerText();
  await page.locator('#mail-list li button').first().click();
  const message = page.locator('#message');
  await message.locator('#message-subject').waitFor();
  await message.getByText(/^Headers \(\d+\)$/).click();
  await message.locator('dl.headers').waitFor();
  const messagePage = await page.locator('body').innerText();
  const frame = message.locator('iframe.mail-frame');
  const framed = (await frame.count()) > 0;
  const frameText = framed ? await page.frameLocator('iframe.mail-frame').locator('body').innerText() : '';
  const srcdoc = framed ? ((await frame.evaluate((f: any) => f.srcdoc as string)) ?? '') : '';
  await message.getByRole('button', { name: 'All mail of this identity' }).click();
  await page.getByRole('button', { name: 'All identities' }).click();
  await page.locator('body[data-view="identities"]').waitFor();
  return { identityPage, messagePage, frameText, srcdoc };
};

test('secret views (console): a key without secrets:read reads each identity of the table and its message; no page text, frame text or markup shows a code', async (t: ExecutionContext) => {
  const { reader, delivered } = await tableTenant();
  const { context, page } = await open(DESKTOP);
  t.teardown(() => context.close());
  await signIn(page, reader);
  const leaks: Leak[] = [];
  for (const d of extractedOnly(delivered, t.log)) {
    const seen = await readIdentity(page, d);
    leaks.push(
      ...leaksIn('console identity page', seen.identityPage),
      ...leaksIn('console message page', seen.messagePage),
      ...leaksIn('console mail frame (text)', seen.frameText),
      ...leaksIn('console mail frame (srcdoc)', seen.srcdoc),
    );
    if (seen.srcdoc === '') t.log(`"${d.mail.name}": no frame (the HTML was withheld or the mail has none)`);
    const markup = (await page.content()).toLowerCase();
    t.false(markup.includes(coreOf(d.mail.code)), `${d.mail.name}: the page's markup`);
  }
  t.deepEqual(leaks, [], describeLeaks(leaks));
});

test('secret views (console): a key with secrets:read that presses Show codes and links sees the code in the text and in the frame (the control)', async (t) => {
  const { revealer, delivered } = await tableTenant();
  const { context, page } = await open(DESKTOP);
  t.teardown(() => context.close());
  await signIn(page, revealer);
  for (const d of delivered.filter((one) => /cells|names|dashed letters|HTML5/.test(one.mail.name))) {
    await page.locator('#identity-list').getByRole('button', { name: d.mail.name, exact: true }).click();
    await page.locator('#mail-list li button').first().click();
    await page.locator('#message').getByRole('button', { name: 'Show codes and links' }).click();
    await page.locator('#message').getByRole('button', { name: 'Mask codes and links' }).waitFor();
    const text = await page.locator('body').innerText();
    const frame = await page.frameLocator('iframe.mail-frame').locator('body').innerText();
    t.true(holdsSecret(text, d.mail.code) || holdsSecret(frame, d.mail.code), `${d.mail.name}: shown`);
    if (d.mail.html !== undefined) t.true(holdsSecret(frame, d.mail.code), `${d.mail.name}: the frame shows it`);
    await page.getByRole('button', { name: 'All identities' }).click();
    await page.locator('body[data-view="identities"]').waitFor();
  }
});
