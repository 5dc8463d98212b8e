import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import test, { type ExecutionContext } from 'ava';
import { FUZZ_LIMITS, FuzzIngress, STALL_IDLE_MS, sampleCases, type FuzzCase } from './fuzz/cases.js';
import { runAbort, runGarbage, runMessage, runStall, type RunResult } from './fuzz/driver.js';
import { RawSmtp, message, openAdmitted, startServer } from './support.js';

const CASES = 10_000;
const CONCURRENCY = 16;
// Same seed, same cases: a failure names its case id, and the run can be replayed with it.
const SEED = Number(process.env['MAIL_SMTP_FUZZ_SEED'] ?? 20_261_122);
const MB = 1024 * 1024;

// A full collection before each reading makes "after vs before" mean retained memory, not
// garbage. Enabled at run time, as the test runner does not pass --expose-gc.
const collect = ((): (() => void) | undefined => {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();

/** JS heap plus Buffer memory: what a server buffering messages would grow. */
const used = (): number => {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

const settled = (): number => {
  collect?.();
  collect?.();
  return used();
};

const runAll = async (port: number, stallPort: number, cases: readonly FuzzCase[]): Promise<RunResult> => {
  const result: RunResult = { failures: [], expectations: new Map(), neverDelivered: new Set(), finalCodes: new Map() };
  let next = 0;
  const worker = async (): Promise<void> => {
    let session: RawSmtp | undefined;
    for (let c = cases[next++]; c !== undefined; c = cases[next++]) {
      try {
        if (c.type === 'message') {
          // Message cases share one session per worker, as a sending MTA reuses its connection.
          if (session === undefined || session.isClosed) {
            session = (await RawSmtp.open(port)).client;
            await session.command('EHLO fuzz.test');
          }
          await runMessage(session, c, result);
        } else if (c.type === 'garbage') await runGarbage(port, c);
        else if (c.type === 'abort') await runAbort(port, c, result);
        else await runStall(stallPort, c, result);
      } catch (err) {
        result.failures.push(`case ${c.id} ${JSON.stringify(c)}: ${(err as Error).message}`);
        session?.destroy();
        session = undefined;
      }
    }
    session?.quit();
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return result;
};

/**
 * Streams `total` bytes as one message in reused 64 KiB chunks, honouring back-pressure, and
 * reads the retained memory (after a full GC) while the session is still in DATA, where a
 * server that buffered the message would hold all of it.
 */
const streamHuge = async (port: number, total: number): Promise<{ code: number; retained: number }> => {
  const { client } = await RawSmtp.open(port);
  for (const command of ['EHLO fuzz.test', 'MAIL FROM:<fuzz@example.org>', 'RCPT TO:<ok1@inbox.test>', 'DATA']) await client.command(command);
  const chunk = Buffer.alloc(64 * 1024, 'y'.repeat(78) + '\r\n');
  for (let sent = 0; sent < total; sent += chunk.length) {
    if (!client.socket.write(chunk)) await once(client.socket, 'drain');
  }
  const retained = settled();
  client.write('\r\n.\r\n');
  const reply = await client.next(30_000);
  client.quit();
  return { code: reply.code, retained };
};

/**
 * Delivery is exact: each message deliver saw is the one that was sent, to the accepted
 * recipients; nothing refused, cut off or stalled reached it, and nothing unlabelled did.
 */
const checkDeliveries = (t: ExecutionContext, ingress: FuzzIngress, result: RunResult): void => {
  for (const [id, expected] of result.expectations) {
    const seen = ingress.seen.get(id);
    if (seen?.digest !== expected.digest || seen.rcptTo.join() !== expected.accepted.join()) t.fail(`case ${id} reached deliver altered or not at all`);
  }
  for (const id of result.neverDelivered) if (ingress.seen.has(id)) t.fail(`case ${id} reached deliver but must not have`);
  t.is(ingress.unlabelled, 0);
  t.is(ingress.seen.size, result.expectations.size);
};

/** Still serving, and no session slot leaked: as many sessions as one address may hold, at once. */
const checkStillServing = async (t: ExecutionContext, port: number, slots: number): Promise<void> => {
  const sessions = await Promise.all(Array.from({ length: slots }, () => RawSmtp.open(port)));
  t.true(sessions.every(({ greeting }) => greeting.code === 220));
  for (const { client } of sessions) client.quit();
  const client = await openAdmitted(port);
  await client.envelope('fuzz@example.org', ['ok1@inbox.test']);
  t.is((await client.data(message('after the storm'))).code, 250);
  client.quit();
};

const inMb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;

// Serial: both tests read process-wide memory, which the other would disturb.
test.serial('fuzz: 10,000 hostile messages and protocol sequences leave the server up, every message delivered or refused with a code, memory bounded', async (t) => {
  const ingress = new FuzzIngress();
  const port = await startServer(t, ingress, { ...FUZZ_LIMITS, maxConnectionsPerIp: CONCURRENCY * 4 });
  const stallPort = await startServer(t, ingress, { ...FUZZ_LIMITS, idleTimeoutMs: STALL_IDLE_MS });
  const cases = sampleCases(CASES, SEED);
  const before = settled();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, used())), 20);
  const started = performance.now();
  const result = await runAll(port, stallPort, cases);
  clearInterval(sampler);
  t.log(`seed ${SEED}: ${cases.length} cases in ${Math.round(performance.now() - started)} ms, ${CONCURRENCY} at a time;`,
    `${ingress.seen.size} reached deliver, ${result.neverDelivered.size} were refused with a code or abandoned by their client;`,
    `final replies to messages: ${[...result.finalCodes].sort().map(([code, n]) => `${code}×${n}`).join(' ')}`);
  t.deepEqual(result.failures.slice(0, 10), [], `${result.failures.length} failing cases`);
  checkDeliveries(t, ingress, result);
  await checkStillServing(t, port, CONCURRENCY * 4);

  const after = settled();
  const bound = collect ? 32 * MB : 128 * MB;
  t.log(`heap+buffers: before ${inMb(before)}, peak ${inMb(peak)}, after ${inMb(after)}`,
    `(${collect ? 'after a full GC' : 'no GC available, generous bound'}: growth must stay under ${inMb(bound)}); rss ${inMb(process.memoryUsage().rss)}`);
  t.true(after - before < bound, `retained ${inMb(after - before)}`);
  // Sixteen sessions each hold at most one message under the cap; the rest is the clients' own bytes and garbage.
  t.true(peak - before < 256 * MB, `peak growth ${inMb(peak - before)}`);
});

test.serial('fuzz: a 64 MB message against a 256 KiB cap is drained in bounded memory and refused with 552', async (t) => {
  const port = await startServer(t, new FuzzIngress(), { ...FUZZ_LIMITS });
  const before = settled();
  const { code, retained } = await streamHuge(port, 64 * MB);
  t.is(code, 552);
  const bound = collect ? 16 * MB : 48 * MB;
  t.log(`retained ${inMb(retained - before)} with 64 MB streamed and the message still open`,
    `(${collect ? 'after a full GC' : 'no GC available, generous bound'}; must stay under ${inMb(bound)})`);
  t.true(retained - before < bound);
});
