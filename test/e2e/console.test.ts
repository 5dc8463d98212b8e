import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import express from 'express';
import { webApp } from '../../hosts/api/src/web-app.ts';
import { repoRoot, tempDir } from './support.js';
import { consoleFixture, DESKTOP, mail, newIdentity, newKey, PHONE, sameSecurityHeaders, signIn, storedByPage } from './console-support.js';
import { assertAccessible, focusedName, shoot } from './web-support.js';

// The team console at /console in a real Chromium (TESTING.md, Browser row), against the real
// host, with mail sent over SMTP on loopback: sign in with an API key (the token in memory only),
// identities (filter, pages, create, extend, squash), an identity's mail arriving live, a message
// read (text, sandboxed HTML, authentication, headers, attachments, raw download), the code found
// with its candidates (masked; Show for a key with secrets:read), and the events. On a desktop and
// on a 360 px wide viewport, with axe-core. `UPDATE_SCREENSHOTS=1` writes docs/screenshots/console-*.png.

const { host, open, seedIdentities } = consoleFixture(test);

test('console: /console answers with the same security headers as /, loads nothing from elsewhere, and the built page has no inline script', async (t) => {
  const html = await sameSecurityHeaders(t, host().url, '/console');
  t.regex(html, /<script type="module" src="\/console-[A-Z0-9]+\.js"><\/script>/);
  t.notRegex(html, /<script>|<script type="module">|style="/, 'no inline script or style: the policy would refuse them');
  const built = readFileSync(join(repoRoot, 'hosts/api/dist/web/console.html'), 'utf8');
  t.is(html, built);
  // The script's budget (ADR 0057): 20 KB gzipped.
  const script = /src="\/(console-[A-Z0-9]+\.js)"/.exec(html)![1]!;
  const gzipped = gzipSync(readFileSync(join(repoRoot, 'hosts/api/dist/web', script))).length;
  t.true(gzipped <= 20 * 1024, `console script ${gzipped} bytes gzipped, budget 20 KB`);
  t.log(`console script: ${gzipped} bytes gzipped`);
  const { context, page, seen } = await open(DESKTOP);
  await page.getByRole('heading', { name: 'Sign in to the team console' }).waitFor();
  await assertAccessible(t, page, 'sign-in');
  t.deepEqual([seen.elsewhere, seen.stopped, seen.refused], [[], [], []]);
  await context.close();
});

test('console: without a build, /console answers 503 saying to run npm run build, with the same security headers', async (t) => {
  const empty = tempDir('console-unbuilt');
  const app = express().use(webApp({ dir: empty.dir })).use((_req, res) => void res.status(404).send('api'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/console`);
    t.is(res.status, 503);
    t.regex(await res.text(), /npm run build/);
    t.regex(res.headers.get('content-security-policy') ?? '', /^default-src 'self';/);
  } finally {
    server.close();
    empty.cleanup();
  }
});

for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  test(`console (${name}): a key of several projects signs in through the picker; the token stays in memory, the key is dropped; a reload or Sign out returns to the form`, async (t) => {
    const key = await newKey(host(), ['identities:read', 'identities:write'], 2);
    const { context, page, seen } = await open(viewport);
    await page.getByLabel('API key').fill(`${key.key}x`);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('alert').filter({ hasText: 'That key is not valid' }).waitFor();
    t.is(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'api-key', 'focus stays on the field to correct it');
    await page.getByLabel('API key').fill(key.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('group', { name: 'This key covers several projects. Which one?' }).waitFor();
    t.is(await focusedName(page), '', 'focus moves to the first project');
    t.is(await page.evaluate(() => (globalThis as any).document.activeElement.value), key.projects[0]);
    await page.keyboard.press('ArrowDown');
    await assertAccessible(t, page, 'project picker');
    await shoot(page, `console-sign-in-${name}`);
    await page.getByRole('button', { name: 'Open project' }).click();
    await page.locator('body[data-view="identities"]').waitFor();
    t.is(await page.locator('#who').textContent(), `${key.orgId} · ${key.projects[1]}`);
    t.is(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'identities-title', 'focus lands on the new view’s heading');
    t.is(await page.getByLabel('API key').inputValue(), '', 'the key is no longer in the field');
    const stored = await storedByPage(page);
    t.false(stored.includes('eat_'), 'no token in web storage or cookies');
    t.false(stored.includes(key.key));
    t.false((await page.content()).includes(key.key));
    await assertAccessible(t, page, 'identities (empty)');
    // Reloading signs out: nothing of the session survives the page's memory.
    await page.reload();
    await page.locator('body[data-ready="true"]').waitFor();
    t.true(await page.locator('#view-sign-in').isVisible());
    t.true(await page.locator('#view-identities').isHidden());
    await signIn(page, key, key.projects[1]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('body[data-view="sign-in"]').waitFor();
    await page.getByRole('status').filter({ hasText: 'Signed out' }).waitFor();
    t.is(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'sign-in-title');
    t.deepEqual([seen.elsewhere, seen.stopped, seen.refused], [[], [], []]);
    await context.close();
  });
}

test('console (phone, 360 px): identities page by 20 and filter by status; one is created from the form, given a child (both open from the lineage), extended and squashed', async (t) => {
  const key = await newKey(host(), ['identities:read', 'identities:write']);
  await seedIdentities(key, 21);
  const { context, page, seen } = await open(PHONE);
  await signIn(page, key);
  await page.locator('#page-info', { hasText: '1–20 of 21' }).waitFor();
  t.is(await page.locator('#identity-list li').count(), 20);
  t.regex((await page.locator('#identity-list li').first().textContent())!, /seeded 20.*@console\.test.*provisioned.*left.*console\.test/);
  await page.getByRole('button', { name: 'Next page' }).click();
  await page.locator('#page-info', { hasText: '21–21 of 21' }).waitFor();
  t.true(await page.getByRole('button', { name: 'Next page' }).isDisabled());
  await page.getByLabel('Label', { exact: true }).fill('checkout test');
  await page.getByLabel('Lifetime (hours)').fill('2');
  await page.getByRole('button', { name: 'Create identity' }).click();
  await page.locator('body[data-view="identity"]').waitFor();
  await page.getByRole('heading', { name: 'checkout test', level: 1 }).waitFor();
  t.regex((await page.locator('#identity-left').textContent())!, /^(1 h 59 min|2 h 0 min) left$/);
  t.is(await page.locator('#identity-domain').textContent(), 'console.test');
  // A child, shown in the lineage; open it from there, and its parent from its lineage.
  const parentEmail = (await page.locator('#identity-email').textContent())!;
  await page.getByLabel('Child label').fill('invitee');
  await page.getByRole('button', { name: 'Create child' }).click();
  const child = page.locator('#lineage ul li');
  await child.waitFor();
  t.regex((await page.locator('#lineage > li').textContent())!, new RegExp(`^${parentEmail} \\(this identity\\) provisioned`));
  await child.getByRole('button').click();
  await page.getByRole('heading', { name: 'invitee', level: 1 }).waitFor();
  await page.locator('#lineage').getByRole('button', { name: parentEmail }).click();
  await page.getByRole('heading', { name: 'checkout test', level: 1 }).waitFor();
  await page.getByLabel('Extend by (hours)').fill('3');
  await page.getByRole('button', { name: 'Extend', exact: true }).click();
  await page.locator('#identity-status', { hasText: 'extended' }).waitFor();
  await page.locator('#events li[data-type="identity.extended"]', { hasText: 'by 3 h' }).waitFor();
  await page.getByRole('button', { name: 'Squash…' }).click();
  t.is(await focusedName(page), 'Keep it', 'the safe choice has focus');
  await page.getByRole('button', { name: 'Squash for good' }).click();
  await page.locator('#identity-status', { hasText: 'squashed' }).waitFor();
  t.true(await page.locator('#extend-form').isHidden());
  await page.locator('#live-state', { hasText: 'Closed' }).waitFor();
  await assertAccessible(t, page, 'squashed identity (phone)');
  await page.getByRole('button', { name: 'All identities' }).click();
  await page.getByLabel('Status').selectOption('squashed');
  await page.locator('#page-info', { hasText: '1–1 of 1' }).waitFor();
  t.is(await page.locator('#identity-list li').count(), 1);
  t.regex((await page.locator('#identity-list li').textContent())!, /checkout test.*squashed.*receives no mail/);
  const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
  t.true(width <= 360, `nothing wider than the phone (${width} px)`);
  await assertAccessible(t, page, 'identities filtered (phone)');
  await shoot(page, 'console-identities-phone', true);
  t.deepEqual([seen.elsewhere, seen.stopped, seen.refused], [[], [], []]);
  await context.close();
});

test('console (phone, 360 px): the identities list is searched by the start of the label, whatever its case, with a count said; an empty search shows all again', async (t) => {
  const key = await newKey(host(), ['identities:read', 'identities:write']);
  const tenant = { authorization: `Bearer ${key.key}`, 'x-org-id': key.orgId, 'x-project-id': key.projects[0]!, 'content-type': 'application/json' };
  for (const label of ['Checkout flow', 'checkout retry', 'Sign-up', 'Old checkout']) {
    const res = await fetch(`${host().url}/v1/identities`, { method: 'POST', headers: { ...tenant, 'idempotency-key': randomUUID() }, body: JSON.stringify({ label }) });
    if (res.status !== 201) throw new Error(`${label}: ${res.status}`);
  }
  const { context, page, seen } = await open(PHONE);
  await signIn(page, key);
  await page.locator('#identity-list li').nth(3).waitFor();
  await page.getByRole('searchbox', { name: 'Label starts with' }).fill('CHECKOUT');
  await page.getByRole('searchbox', { name: 'Label starts with' }).press('Enter');
  await page.getByRole('status').filter({ hasText: '2 identities whose label starts with “CHECKOUT”.' }).waitFor();
  t.deepEqual(await page.locator('#identity-list li .row-title').allTextContents(), ['Checkout flow', 'checkout retry'], 'in label order; “Old checkout” does not start with it');
  await page.getByRole('searchbox', { name: 'Label starts with' }).fill('nothing like it');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText('No identity matches.').waitFor();
  t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 360), 'nothing wider than the phone');
  await assertAccessible(t, page, 'label search (phone)');
  await page.getByRole('searchbox', { name: 'Label starts with' }).fill('');
  await page.locator('#identity-list li').nth(3).waitFor();
  t.is(await page.locator('#identity-list li').count(), 4);
  t.deepEqual([seen.elsewhere, seen.refused], [[], []]);
  await context.close();
});

const HTML = '<p style="color:#c00">Your login code is <b>520741</b>.</p><img alt="" src="http://tracker.example.com/open.png">';

test('console (desktop): a mail arrives live; read it (text, sandboxed HTML, authentication, headers, attachments, raw download); the code is masked and Show reveals it (and the mail’s) with secrets:read; the events list it', async (t) => {
  const key = await newKey(host(), ['identities:read', 'identities:write', 'secrets:read']);
  const { context, page, seen } = await open(DESKTOP, { acceptDownloads: true });
  const address = await newIdentity(page, key, 'shop sign-up');
  await page.getByText('Nothing found yet').waitFor();
  await mail(host(), { to: address, subject: 'Your code', text: 'Your login code is 520741. It expires in 10 minutes.', html: HTML, attachments: [{ filename: 'terms.txt', content: 'Be nice.' }] });
  // Live: no reload, no click; the long-poll brings it.
  const row = page.locator('#mail-list li').first();
  await row.getByRole('button', { name: 'Your code' }).waitFor({ timeout: 15_000 });
  t.regex((await row.textContent())!, /Shop <no-reply@shop\.example\.com>.*Code or link found.*1 attachment/);
  await page.locator('#extraction code.masked', { hasText: '5•••1' }).first().waitFor();
  t.regex((await page.locator('#extraction .winner').textContent())!, /One-time code 5•••1 confidence \d+ %/);
  t.true((await page.locator('#extraction table tbody tr').count()) >= 1);
  t.false((await page.content()).includes('520741'), 'masked until asked');
  await page.locator('#events li[data-type="email.received"]', { hasText: 'Your code' }).waitFor();
  await page.locator('#events li[data-type="extraction.completed"]', { hasText: '5•••1' }).waitFor();
  t.is(await page.locator('#events li[data-type="identity.provisioned"]').count(), 1);
  await assertAccessible(t, page, 'identity with mail');
  await shoot(page, 'console-identity-desktop', true);

  // Show, from the keyboard: the raw value and each candidate's, then Hide.
  await page.getByRole('button', { name: 'Show' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('#extraction .winner code.revealed', { hasText: '520741' }).waitFor();
  t.is(await page.getByRole('button', { name: 'Hide' }).getAttribute('aria-pressed'), 'true');
  t.is(await focusedName(page), 'Hide', 'focus stays on the toggle');
  await page.keyboard.press('Enter');
  await page.locator('#extraction .winner code.masked', { hasText: '5•••1' }).waitFor();

  // Read the mail, from the keyboard.
  await row.getByRole('button', { name: 'Your code' }).focus();
  await page.keyboard.press('Enter');
  const message = page.locator('#message');
  await message.getByRole('heading', { name: 'Your code', level: 3 }).waitFor();
  t.is(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'message-subject');
  t.regex((await message.locator('pre.mail-text').textContent())!, /^Your login code is 5•+1\. It expires/);
  const frame = message.locator('iframe.mail-frame');
  t.is(await frame.getAttribute('sandbox'), '', 'the sender’s HTML may run nothing');
  const srcdoc = (await frame.evaluate((f: any) => f.srcdoc as string))!;
  t.true(srcdoc.includes(`content="default-src 'none'; img-src data:`));
  t.false(srcdoc.includes('520741'), 'the HTML is masked too');
  t.regex((await message.locator('table').textContent())!, /SPF\s*not_checked.*DKIM\s*not_checked.*DMARC\s*not_checked/);
  t.regex((await message.locator('section', { hasText: 'Attachments (1)' }).textContent())!, /terms\.txt · text\/plain · 8 bytes/);
  await message.getByText(/^Headers \(\d+\)$/).click();
  t.regex((await message.locator('dl.headers').textContent())!, /subject\s*Your code/i);
  // Unmasked on request (secrets:read), in the text and in the frame; then masked again.
  await message.getByRole('button', { name: 'Show codes and links' }).click();
  await message.locator('pre.mail-text', { hasText: 'Your login code is 520741.' }).waitFor();
  await page.frameLocator('iframe.mail-frame').locator('b', { hasText: '520741' }).waitFor();
  t.is(await focusedName(page), 'Mask codes and links');
  await page.keyboard.press('Enter');
  await message.locator('pre.mail-text', { hasText: /Your login code is 5•+1\./ }).waitFor();
  const [saved] = await Promise.all([page.waitForEvent('download'), message.getByRole('button', { name: 'Download raw source' }).click()]);
  t.regex(saved.suggestedFilename(), /^msg_.*\.eml$/);
  const raw = readFileSync((await saved.path())!, 'utf8');
  t.regex(raw, /Subject: Your code/);
  await assertAccessible(t, page, 'a message');
  // The frame is drawn anew after each toggle: wait for its text before the picture.
  await page.frameLocator('iframe.mail-frame').locator('b', { hasText: '5•••1' }).waitFor();
  // A picture of the viewport from the message's top: a full-page one leaves the frame blank.
  await message.locator('#message-subject').evaluate((heading: any) => heading.scrollIntoView());
  await shoot(page, 'console-message-desktop');
  await message.getByRole('button', { name: 'All mail of this identity' }).click();
  t.is(await focusedName(page), 'Your code', 'back to the list, on the message read');
  // Chromium may report the mail's tracker as asked, then stopped by the policy before it left.
  t.deepEqual(seen.elsewhere.filter((url) => !seen.stopped.includes(url)), [], 'nothing is asked of any other origin');
  t.deepEqual(seen.refused, [], 'nothing of the page itself was refused by the policy');
  t.true(seen.mailRefused.some((text) => text.includes('http://tracker.example.com/open.png')), 'the mail’s remote image was refused');
  await context.close();
});

test('console: a key without secrets:read sees masked values and no Show; the raw source says what it needs', async (t) => {
  const key = await newKey(host(), ['identities:read', 'identities:write']);
  const { context, page } = await open(PHONE);
  const address = await newIdentity(page, key, 'no secrets');
  await mail(host(), { to: address, subject: 'Code inside', text: 'Your verification code: 318245' });
  await page.locator('#extraction code.masked', { hasText: '3•••5' }).first().waitFor({ timeout: 15_000 });
  t.is(await page.getByRole('button', { name: 'Show' }).count(), 0);
  await page.getByText('A key with secrets:read can show them.').waitFor();
  await page.locator('#mail-list').getByRole('button', { name: 'Code inside' }).click();
  await page.getByText('The raw source needs a key with secrets:read.').waitFor();
  t.is(await page.getByRole('button', { name: 'Show codes and links' }).count(), 0);
  await assertAccessible(t, page, 'a message without secrets:read (phone)');
  await shoot(page, 'console-message-phone', true);
  t.false((await page.content()).includes('318245'));
  await context.close();
});

test('console (phone, 360 px): see why: each candidate opens its signals, largest first, with no secret in them; pressed again, the reasons go', async (t) => {
  const key = await newKey(host(), ['identities:read', 'identities:write', 'secrets:read']);
  const { context, page, seen } = await open(PHONE);
  const address = await newIdentity(page, key, 'see why');
  await mail(host(), { to: address, subject: 'Sign in', text: 'Your sign-in code is 873056.\nOr sign in here: https://shop.example.com/login?token=Hq82vLx03TmWz7' });
  await page.locator('#extraction code.masked', { hasText: '8•••6' }).first().waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'See why' }).focus();
  await page.keyboard.press('Enter');
  const first = page.locator('#extraction details').first();
  await first.locator('table.why tbody tr').first().waitFor();
  t.is(await page.getByRole('button', { name: 'See why' }).getAttribute('aria-pressed'), 'true');
  t.is(await focusedName(page), 'See why', 'focus stays on the toggle');
  t.is(await page.locator('#extraction details').count(), await page.locator('#extraction table:not(.why) tbody tr').count(), 'one disclosure per candidate');
  t.true(await first.evaluate((node) => (node as any).open), 'the best candidate’s reasons are open');
  const rows = await first.locator('table.why tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent!, tr.querySelector('td')!.textContent!]));
  // Masked, the reasons are those of the code's surroundings: nothing that depends on the code itself.
  t.true(rows.length > 0);
  t.false(rows.some(([signal]) => signal === 'bias' || signal === 'shape' || signal === 'base'), 'no bias, base or shape in a masked read');
  const sizes = rows.map(([, number]) => Math.abs(Number(number!.replace('−', '-'))));
  t.deepEqual(sizes, [...sizes].sort((a, b) => b - a), 'largest first');
  // The second candidate opens from the keyboard too.
  const second = page.locator('#extraction details summary').nth(1);
  if ((await second.count()) === 1) {
    await second.focus();
    await page.keyboard.press('Enter');
    await page.locator('#extraction details').nth(1).locator('table.why').waitFor();
  }
  const why = (await page.locator('#extraction .why-list').textContent())!;
  for (const piece of ['873056', '7305', 'Hq82vLx03TmWz7', 'Hq82']) t.false(why.includes(piece), `${piece} shows`);
  t.false((await page.content()).includes('873056'), 'masked until asked');
  t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 360), 'nothing wider than the phone');
  await assertAccessible(t, page, 'see why (phone)');
  await shoot(page, 'console-why-phone', true);
  await page.keyboard.press('Shift+Tab');
  await page.getByRole('button', { name: 'See why' }).click();
  await page.locator('#extraction button[data-mode="why"][aria-pressed="false"]').waitFor();
  t.is(await page.locator('#extraction .why-list').count(), 0);
  t.deepEqual([seen.elsewhere, seen.refused], [[], []]);
  await context.close();
});
