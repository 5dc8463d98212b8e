import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from './support.js';

// What the Chromium tests of the web app share: axe in the page, the focused control's name,
// screenshots on request (`UPDATE_SCREENSHOTS=1`), and a watch on what the page asks and is refused.

const axeSource = readFileSync(join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core in the page. Evaluated over the DevTools protocol: the page's CSP forbids inline scripts. */
export const assertAccessible = async (t: ExecutionContext, page: Page, screen: string) => {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // The page's globals, untyped here: the test project has no DOM lib.
    const result = await (globalThis as any).axe.run((globalThis as any).document);
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(' ')) }));
  });
  const severe = violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical');
  t.deepEqual(severe, [], `${screen}: ${JSON.stringify(severe)}`);
};

/** The accessible name (aria-label, else text) of the focused element. */
export const focusedName = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const active = (globalThis as any).document.activeElement;
    return String(active?.getAttribute('aria-label') ?? active?.textContent ?? '').trim();
  });

const screenshots = process.env.UPDATE_SCREENSHOTS === '1';

/** Writes docs/screenshots/<name>.png when asked to. */
export const shoot = async (page: Page, name: string, fullPage = false) => {
  if (screenshots) await page.screenshot({ path: join(repoRoot, 'docs/screenshots', `${name}.png`), fullPage });
};

/**
 * What a page asked of other origins, which of those the policy stopped before they left
 * (Chromium fails them with `csp`), and what the policy refused: of the page itself, and of a
 * sandboxed mail (`about:srcdoc`), whose refusals are the policy at work.
 */
export const watchPage = (page: Page, origin: string) => {
  const seen = { elsewhere: [] as string[], stopped: [] as string[], refused: [] as string[], mailRefused: [] as string[] };
  page.on('request', (request) => {
    if (!request.url().startsWith(`${origin}/`)) seen.elsewhere.push(request.url());
  });
  page.on('requestfailed', (request) => {
    if (/csp/i.test(request.failure()?.errorText ?? '')) seen.stopped.push(request.url());
  });
  page.on('console', (message) => {
    if (!/Content Security Policy|Refused to/i.test(message.text())) return;
    (message.location().url === 'about:srcdoc' ? seen.mailRefused : seen.refused).push(message.text());
  });
  return seen;
};

/** Debian's Chromium, headless, with a fresh temporary profile and none of its background traffic. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
