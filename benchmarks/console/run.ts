/**
 * Team console benchmark: how soon the console is useful with 1,000 identities and 10,000
 * messages in the store (SQLite, the single-machine default), in a real Chromium. The identities
 * are made through the API and every message is sent over SMTP to the host's MX, as in use.
 * Reported (median and worst of 5 fresh tabs): the page ready to type a key; from pressing Enter
 * on the key to the first page of identities drawn (the first useful render: `/v1/me`, the token
 * exchange and the list); from opening an identity to its mail, extraction and events drawn. The
 * goal is under 1 s for the first useful render; also the gzip size of the console's script
 * against its 20 KB budget (ADR 0057). Timings are reported, never asserted.
 *
 *   node --import=tsx --conditions=@ephemail/source benchmarks/console/run.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadConfig, startHost, type RunningHost } from '@ephemail/host-api';
import { createTransport } from 'nodemailer';
import { chromium } from 'playwright-core';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const RESULTS = join(root, 'benchmarks/results/console.json');
const IDENTITIES = 1000;
const MESSAGES = 10_000;
const TABS = 5;
const BUDGET_GZIP = 20 * 1024;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => Math.round(x * 10) / 10;

const seed = async (host: RunningHost): Promise<{ key: string; headers: Record<string, string> }> => {
  const created = await host.ephemail.auth.createApiKey({ orgId: 'org_bench', projectIds: ['proj_bench'], scopes: ['identities:read', 'identities:write'], plan: 'enterprise' });
  if (created._tag === 'Left') throw new Error(created.left._tag);
  const headers = { authorization: `Bearer ${created.right.key}`, 'x-org-id': 'org_bench', 'x-project-id': 'proj_bench', 'content-type': 'application/json' };
  const emails: string[] = [];
  for (let i = 0; i < IDENTITIES; i += 200) {
    const body = { identities: Array.from({ length: 200 }, (_, j) => ({ label: `bench ${i + j}`, ttl_hours: 24 })) };
    const res = await fetch(`${host.url}/v1/identities/bulk`, { method: 'POST', headers: { ...headers, 'idempotency-key': `bulk-${i}` }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`bulk create answered ${res.status}: ${await res.text()}`);
    emails.push(...((await res.json()) as { items: { email: string }[] }).items.map((x) => x.email));
  }
  const mailer = createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 8, maxMessages: Infinity });
  for (let i = 0; i < MESSAGES; i += 200) {
    await Promise.all(Array.from({ length: 200 }, (_, j) => {
      const n = i + j;
      return mailer.sendMail({ from: 'no-reply@shop.example.com', to: emails[n % IDENTITIES], subject: `Your code ${n}`, text: `Your login code is ${100000 + n}.` });
    }));
  }
  mailer.close();
  return { key: created.right.key, headers };
};

const measure = async (host: RunningHost, key: string) => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const ready: number[] = [];
  const firstRender: number[] = [];
  const identity: number[] = [];
  try {
    for (let tab = 0; tab < TABS; tab += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      let t = performance.now();
      await page.goto(`${host.url}/console`);
      await page.locator('body[data-ready="true"]').waitFor();
      ready.push(performance.now() - t);
      await page.getByLabel('API key').fill(key);
      t = performance.now();
      await page.getByLabel('API key').press('Enter');
      await page.locator('#identity-list li:nth-child(20)').waitFor();
      firstRender.push(performance.now() - t);
      t = performance.now();
      await page.locator('#identity-list li button').first().click();
      await page.locator('#mail-list li:nth-child(10)').waitFor();
      await page.locator('#extraction .winner').waitFor();
      await page.locator('#events li').first().waitFor();
      identity.push(performance.now() - t);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { ready, firstRender, identity };
};

const summary = (xs: number[]) => ({ median: ms(median(xs)), worst: ms(Math.max(...xs)), runs: xs.map(ms) });

const main = async () => {
  execFileSync(process.execPath, [join(root, 'hosts/api/scripts/build-web.mjs')], { stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-console-bench-'));
  const host = await startHost(loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'bench.test' }));
  try {
    const began = performance.now();
    const { key } = await seed(host);
    const seededS = (performance.now() - began) / 1000;
    const timings = await measure(host, key);
    const web = join(root, 'hosts/api/dist/web');
    const script = readdirSync(web).find((f) => /^console-[A-Z0-9]+\.js$/.test(f))!;
    const gzip = gzipSync(readFileSync(join(web, script))).length;
    const result = {
      benchmark: 'console', at: new Date().toISOString(), cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavg: loadavg(),
      store: 'sqlite', identities: IDENTITIES, messages: MESSAGES, seeded_s: Math.round(seededS * 10) / 10,
      page_ready_ms: summary(timings.ready), first_useful_render_ms: summary(timings.firstRender), identity_open_ms: summary(timings.identity),
      goal_first_useful_render_ms: 1000, script_gzip_bytes: gzip, script_gzip_budget_bytes: BUDGET_GZIP,
    };
    mkdirSync(join(root, 'benchmarks/results'), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`console: ${IDENTITIES} identities, ${MESSAGES} messages (SQLite, seeded in ${result.seeded_s} s)`);
    console.log(`  page ready          median ${result.page_ready_ms.median} ms, worst ${result.page_ready_ms.worst} ms`);
    console.log(`  first useful render median ${result.first_useful_render_ms.median} ms, worst ${result.first_useful_render_ms.worst} ms (goal < 1000 ms)`);
    console.log(`  identity opened     median ${result.identity_open_ms.median} ms, worst ${result.identity_open_ms.worst} ms`);
    console.log(`  script ${gzip} bytes gzipped (budget ${BUDGET_GZIP})`);
  } finally {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

await main();
