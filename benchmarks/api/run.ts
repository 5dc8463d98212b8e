/**
 * API load benchmark: the reference host (on SQLite) against a bare Express 5 app answering the
 * same JSON, for a read (GET one identity) and a write (POST a new identity, each request with its
 * own Idempotency-Key). Prints a table and writes benchmarks/results/api.json. Timings are only
 * reported; the run fails only when the measurement itself is unsound (errors, non-2xx, replays).
 *
 *   npm run build && node --import=tsx --conditions=@ephemail/source benchmarks/api/run.ts
 *   BENCH_DURATION=6 ... (seconds of measurement per server and scenario, split over the rounds; default 12)
 *   BENCH_ROUNDS=3 ... (host and bare take turns this many times per scenario; default 3)
 *   BENCH_API_CPU_PROF=<dir> ... (write a CPU profile of the host process into <dir>)
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Measurement, Timing } from './load.js';
import { combine, CONNECTIONS, measure, medianRatio } from './load.js';
import { installExitHandlers, stopAll, stopChild } from './processes.js';
import type { Check, ScenarioResult } from './report.js';
import { printReport, resultsDocument, writeResults } from './report.js';
import type { BareTarget, HostTarget } from './targets.js';
import { countIdentities, createIdentity, PLAN_IDENTITY_QUOTA, startBare, startHost } from './targets.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const RESULTS = join(root, 'benchmarks/results/api.json');
const CREATE_BODY = JSON.stringify({ label: 'bench', metadata: { source: 'benchmark' } });
/**
 * Per-phase request caps for the POST scenario: warm-up plus measured phase plus the requests in
 * flight when each phase stops stay below the enterprise quota of live identities.
 */
const POST_CAP = { warmup: 8_000, measured: PLAN_IDENTITY_QUOTA - 10_000 };

const timingFromEnv = (): Timing => {
  const raw = process.env.BENCH_DURATION;
  const durationS = raw === undefined || raw === '' ? 12 : Number(raw);
  if (!Number.isFinite(durationS) || durationS <= 0) throw new Error(`BENCH_DURATION must be a positive number of seconds, got "${raw}"`);
  const rawRounds = process.env.BENCH_ROUNDS;
  const rounds = rawRounds === undefined || rawRounds === '' ? 3 : Number(rawRounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS must be a whole number >= 1, got "${rawRounds}"`);
  // Each server gets `durationS` of measurement in all, split over the rounds.
  return { durationS: Math.max(1, Math.round(durationS / rounds)), warmupS: 1, rounds };
};

/**
 * Same request to both servers, so the difference is the host's work, not the client's. The
 * servers take turns (host, bare, then bare, host, ...), one slice each per round, and the ratio
 * is the median of the rounds' ratios: on a shared machine the load moves within seconds, and a
 * pair measured back to back sees the same load.
 */
const runPair = async (
  name: string,
  route: string,
  paths: { host: string; bare: string },
  request: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; uniqueIds?: boolean },
  targets: { host: HostTarget; bare: BareTarget },
  timing: Timing,
): Promise<ScenarioResult> => {
  const cap = request.uniqueIds ? POST_CAP : undefined;
  const rounds: { host: Measurement; bare: Measurement }[] = [];
  for (let round = 0; round < timing.rounds; round += 1) {
    console.log(`measuring ${route}, round ${round + 1} of ${timing.rounds}...`);
    const host = () => measure({ ...request, url: `${targets.host.base}${paths.host}`, cap }, timing);
    const bare = () => measure({ ...request, url: `${targets.bare.base}${paths.bare}` }, timing);
    if (round % 2 === 0) {
      const h = await host();
      rounds.push({ host: h, bare: await bare() });
    } else {
      const b = await bare();
      rounds.push({ host: await host(), bare: b });
    }
  }
  return { name, route, host: combine(rounds.map((r) => r.host)), bare: combine(rounds.map((r) => r.bare)), rounds, ratio: medianRatio(rounds) };
};

const cleanRun = (label: string, m: Measurement): Check => ({
  name: `${label} answered only 2xx`,
  ok: m.non2xx === 0 && m.errors === 0 && m.warmupNon2xx === 0,
  detail: `non-2xx ${m.non2xx} (warm-up ${m.warmupNon2xx}), errors ${m.errors}, timeouts ${m.timeouts}, status codes ${JSON.stringify(m.statusCodes)}`,
});

/**
 * Every counted 201 must be a new identity: a replayed Idempotency-Key would answer 2xx without
 * creating one. The store may hold a few more than counted (requests in flight when a phase ended).
 */
const creationCheck = async (host: HostTarget, post: Measurement, rounds: number): Promise<Check[]> => {
  const counted = 1 + post.warmup2xx + post.ok2xx;
  const stored = await countIdentities(host);
  const inFlight = 2 * rounds * CONNECTIONS;
  return [
    {
      name: 'every POST created a new identity (no replays)',
      ok: stored >= counted && stored <= counted + inFlight,
      detail: `${stored} identities stored for ${counted} counted 2xx (setup included)`,
    },
    { name: 'stayed below the plan quota', ok: stored < PLAN_IDENTITY_QUOTA, detail: `${stored} of ${PLAN_IDENTITY_QUOTA}` },
    { name: 'POST phase ran its full duration', ok: !post.capped, detail: post.capped ? 'ended early at the request cap' : 'not capped' },
  ];
};

const scenarios = async (targets: { host: HostTarget; bare: BareTarget }, identityId: string, timing: Timing) => {
  const headers = targets.host.headers;
  const get = await runPair('get_identity', 'GET /v1/identities/{id}', { host: `/v1/identities/${identityId}`, bare: '/item' },
    { method: 'GET', headers }, targets, timing);
  const postHeaders = { ...headers, 'content-type': 'application/json', 'idempotency-key': 'bench-[<id>]' };
  const post = await runPair('create_identity', 'POST /v1/identities', { host: '/v1/identities', bare: '/item' },
    { method: 'POST', headers: postHeaders, body: CREATE_BODY, uniqueIds: true }, targets, timing);
  return [get, post] as const;
};

const main = async (): Promise<number> => {
  const timing = timingFromEnv();
  // Filled once the host is up; the exit handlers may run before that.
  const started: { host?: HostTarget } = {};
  installExitHandlers(() => started.host?.removeDatabase());
  const host = await startHost(root);
  started.host = host;
  const identity = await createIdentity(host, CREATE_BODY);
  const bare = await startBare(root, identity.text);
  const [get, post] = await scenarios({ host, bare }, identity.id, timing);
  const checks: Check[] = [
    cleanRun('host GET', get.host), cleanRun('bare GET', get.bare),
    cleanRun('host POST', post.host), cleanRun('bare POST', post.bare),
    ...(await creationCheck(host, post.host, timing.rounds)),
    { name: 'host stayed up', ok: host.child.process.exitCode === null, detail: `exit code ${host.child.process.exitCode ?? 'none'}` },
  ];
  const document = resultsDocument([get, post], checks, timing);
  printReport(document);
  writeResults(RESULTS, document);
  console.log(`\nresults written to benchmarks/results/api.json`);
  await Promise.all([stopChild(host.child), stopChild(bare.child)]);
  host.removeDatabase();
  return checks.every((check) => check.ok) ? 0 : 1;
};

main().then(
  (code) => {
    if (code !== 0) console.error('\nthe measurement is not sound (see the failed checks above)');
    process.exitCode = code;
  },
  async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await stopAll();
    process.exit(1);
  },
);
