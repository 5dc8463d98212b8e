/**
 * What each feature of the SMTP path costs per message, in µs of the host's CPU: the host runs
 * under `--cpu-prof` (every thread), smtp-source sends it a fixed number of 4 KiB messages over
 * reused connections (20 sessions, one recipient, as the smtp benchmark's first cell does), and the
 * profiles of all its threads are split by feature (see `cpu-profile.ts`). The host's CPU time over
 * the messages (from /proc, all threads) is split in the proportions the profiles show.
 *
 *   npm run build && node --import=tsx --conditions=@ephemail/source benchmarks/profiles/smtp-costs.ts
 *   BENCH_COST_MESSAGES=5000 ...  (messages; default 5,000)
 *   BENCH_COST_KIB=4 ...          (message size in KiB; default 4)
 *   BENCH_COST_PROFILES=<dir> ... (keep the host's profiles there; default: removed)
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installExitHandlers } from '../api/processes.js';
import { writeResults } from '../api/report.js';
import { countMessages, createIdentity } from '../smtp/host-api.js';
import { runSource } from '../smtp/source.js';
import { startHost } from '../smtp/targets.js';
import { cpuUsedUs, type Feature, featureCostsOfAll, file, under } from './cpu-profile.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

/** The features on the SMTP path and the frames that are theirs. */
export const SMTP_FEATURES: readonly Feature[] = [
  { name: 'SMTP protocol (smtp-server, session handlers)', frames: [under('node_modules/smtp-server/'), under('adapters/mail-smtp/dist/')] },
  { name: 'hand-over between threads', frames: [/^postMessage@/, file('hosts/api/dist/delivery-thread.js'), file('hosts/api/dist/delivery-threads.js'), file('hosts/api/dist/delivery-protocol.js'), file('hosts/api/dist/turn-queue.js')] },
  { name: 'MIME parse', frames: [under('node_modules/postal-mime/'), under('adapters/mail-parse/dist/')] },
  { name: 'extraction engine', frames: [under('core/dist/extraction/')] },
  { name: 'of which the secret masker', frames: [file('core/dist/extraction/secret-masker.js'), file('core/dist/extraction/mask.js')] },
  { name: 'marketplace rules per recipient', frames: [under('core/dist/marketplace/')] },
  { name: 'message record (hashes, body span)', frames: [file('core/dist/mail/message-record.js'), file('core/dist/mail/body-span.js')] },
  { name: 'recording (identity, message, events), store included', frames: [file('core/dist/mail/identity-recorder.js')] },
  { name: 'store (SQLite), all callers', frames: [under('adapters/store-sqlite/dist/')] },
  { name: 'event relays (webhooks, runs, stream, notifications)', frames: [file('core/dist/store/event-relay.js')] },
  { name: 'of which reliability runs', frames: [file('core/dist/reliability/run-mail.js')] },
  { name: 'metrics', frames: [under('core/dist/metrics/'), file('adapters/http-express/dist/prom-meter.js')], leaves: [file('hosts/api/dist/metered-store.js')] },
  { name: 'garbage collection', frames: [/^\(garbage collector\)@/] },
];

const positive = (name: string, fallback: number, min: number): number => {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  return n;
};

const main = async () => {
  installExitHandlers(() => undefined);
  const messages = positive('BENCH_COST_MESSAGES', 5000, 500);
  const kib = positive('BENCH_COST_KIB', 4, 1);
  const keep = process.env.BENCH_COST_PROFILES;
  const dir = keep === undefined || keep === '' ? mkdtempSync(join(tmpdir(), 'ephemail-cost-')) : resolve(keep);
  const host = await startHost(root, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  let cpuUs = 0;
  let stored = 0;
  try {
    const identity = await createIdentity(host.api!, 'smtp costs');
    const base = { port: host.smtpPort, recipient: identity.email, payloadBytes: kib * 1024, reuse: true };
    const warm = await runSource({ ...base, messages: 200 });
    const before = cpuUsedUs(host.child.process.pid!);
    const run = await runSource({ ...base, messages });
    cpuUs = cpuUsedUs(host.child.process.pid!) - before;
    if (warm.exitCode !== 0 || run.exitCode !== 0 || run.completed !== messages) throw new Error(`smtp-source did not deliver every message: ${run.completed}/${messages}`);
    stored = await countMessages(host.api!, identity.id);
  } finally {
    await host.stop();
  }
  if (stored !== messages + 200) throw new Error(`the host stored ${stored} of ${messages + 200} messages`);
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).map((name) => join(dir, name));
  const costs = featureCostsOfAll(files, SMTP_FEATURES);
  if (keep === undefined || keep === '') rmSync(dir, { recursive: true, force: true });
  const perMessage = cpuUs / messages;
  const rows = Object.fromEntries(SMTP_FEATURES.map((f) => [f.name, (costs.features[f.name]! / costs.busyUs) * perMessage]));
  console.log(`\nhost CPU per message (µs), ${messages} messages of ${kib} KiB, reused connections, ${files.length} threads profiled\n`);
  console.log(`${'host process, all threads (CPU time from /proc)'.padEnd(58)}${perMessage.toFixed(1).padStart(8)}`);
  for (const [name, us] of Object.entries(rows)) console.log(`${name.padEnd(58)}${us.toFixed(1).padStart(8)}`);
  writeResults(join(root, 'benchmarks/results/smtp-costs.json'), {
    benchmark: 'smtp-costs',
    timestamp: new Date().toISOString(),
    messages,
    sizeKiB: kib,
    unit: 'µs of host CPU per message',
    hostCpu: perMessage,
    features: rows,
  });
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
