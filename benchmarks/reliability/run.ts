/**
 * Reliability-run benchmark: N runs at once against a local target app that mails the MX as soon
 * as it is asked. Reported: runs per second (first create to last completion), and the overhead
 * the service adds to a run's mail: completion minus the moment the target's SMTP send was
 * accepted (250), p50/p99; the goal is p99 < 100 ms at 200 concurrent runs. The baseline, in the
 * same run: the target's own send time (start of the SMTP send to its 250), which every run
 * includes, and the ratio of a run's whole time (trigger start to completion) to it.
 *
 * Host (SQLite file, in process), target app and SMTP clients share one process; other load on
 * the machine moves every figure (the load average is in the results). Timings are reported,
 * never asserted.
 *
 *   node --import=tsx --conditions=@ephemail/source benchmarks/reliability/run.ts
 *   BENCH_RUNS=200 ... (runs at once; default 200)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import nodemailer from 'nodemailer';
import { loadConfig, startHost } from '@ephemail/host-api';
import { summarize } from '../webhooks/stats.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const RESULTS = join(root, 'benchmarks/results/reliability.json');
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const P99_GOAL_MS = 100;

const dir = mkdtempSync(join(tmpdir(), 'ephemail-bench-reliability-'));
const host = await startHost(
  loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'silent', INBOX_DOMAIN: 'bench.test' }),
);
const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: host.smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 16, maxMessages: Infinity });

/** Per address: when the target began its SMTP send, and when the MX accepted it (250). */
const sends = new Map<string, { start: number; accepted: number }>();
const target = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const { email } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { email: string };
    res.writeHead(200).end('{}');
    const start = Date.now();
    void smtp
      .sendMail({ from: 'no-reply@app.example.com', to: email, subject: 'Reset your password', text: `Your password reset code is ${String(100000 + Math.floor(Math.random() * 900000))}.` })
      .then(() => sends.set(email, { start, accepted: Date.now() }));
  });
});
await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/reset`;

const created = await host.ephemail.auth.createApiKey({ orgId: 'org_bench', projectIds: ['proj_bench'], scopes: ['identities:read', 'identities:write', 'reliability:write'], plan: 'enterprise' });
if (E.isLeft(created)) throw new Error(created.left._tag);
const headers = { authorization: `Bearer ${created.right.key}`, 'x-org-id': 'org_bench', 'x-project-id': 'proj_bench', 'content-type': 'application/json' };
const post = async (path: string, body: unknown) => {
  const res = await fetch(`${host.url}${path}`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ id: string; email: string }>;
};

const identities = await Promise.all(Array.from({ length: RUNS }, (_, i) => post('/v1/identities', { label: `bench-${i}` })));
const began = Date.now();
const runs = await Promise.all(identities.map((who) => post('/v1/reliability/password-reset', { target_url: targetUrl, identity_id: who.id, timeout_seconds: 60 })));

// Until every run has finished (read from the store: polling the API would load it).
const store = host.ephemail.deps.store;
for (let i = 0; i < 1200; i += 1) {
  if ((await store.count('reliability_runs', { where: { open: true } })) === 0) break;
  await new Promise((r) => setTimeout(r, 25));
}
const records = (await Promise.all(runs.map((run) => store.get('reliability_runs', run.id)))) as unknown as {
  status: string;
  email: string;
  trigger_started_at: string;
  completed_at: string | null;
}[];
const completed = records.filter((r) => r.status === 'completed' && r.completed_at !== null);
const lastCompletion = Math.max(...completed.map((r) => Date.parse(r.completed_at!)));
const overheadMs = completed.map((r) => Date.parse(r.completed_at!) - sends.get(r.email)!.accepted);
const wholeMs = completed.map((r) => Date.parse(r.completed_at!) - Date.parse(r.trigger_started_at));
const sendMs = [...sends.values()].map((s) => s.accepted - s.start);
const overhead = summarize(overheadMs);
const whole = summarize(wholeMs);
const baseline = summarize(sendMs);
const result = {
  benchmark: 'reliability',
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, loadavg: loadavg().map((l) => Number(l.toFixed(2))) },
  runs: RUNS,
  completed: completed.length,
  statuses: records.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {}),
  runsPerSec: Number((completed.length / ((lastCompletion - began) / 1000)).toFixed(1)),
  overheadMs: overhead,
  runMs: whole,
  baseline: { name: 'target SMTP send (start to 250)', ms: baseline },
  ratio: { runP99ToSendP99: Number((whole.p99 / Math.max(baseline.p99, 0.1)).toFixed(2)) },
  goal: { overheadP99BelowMs: P99_GOAL_MS, met: completed.length === RUNS && overhead.p99 < P99_GOAL_MS },
};
console.log(`${RUNS} runs at once: ${completed.length} completed ${JSON.stringify(result.statuses)}, ${result.runsPerSec} runs/s`);
console.log(`overhead (completion - SMTP 250): p50 ${overhead.p50} ms, p99 ${overhead.p99} ms, max ${overhead.max} ms`);
console.log(`run (trigger start - completion): p50 ${whole.p50} ms, p99 ${whole.p99} ms; baseline target send: p50 ${baseline.p50} ms, p99 ${baseline.p99} ms; ratio p99 ${result.ratio.runP99ToSendP99}x`);
console.log(`goal p99 overhead < ${P99_GOAL_MS} ms with every run completed: ${result.goal.met ? 'met' : 'NOT met'}`);
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
smtp.close();
target.close();
await host.close();
rmSync(dir, { recursive: true, force: true });
