import { Worker } from 'node:worker_threads';
import type { Meter, ParseFailure, ParseOutcome } from '@ephemail/core';
import { noMeter } from '@ephemail/core';
import { DEFAULT_LIMITS, precheck, type MailParseLimits } from './limits.js';
import type { ParseReply, ParseRequest, WorkerReady } from './parse-worker.js';
import type { MailParseOptions, PostalMimeMailParser } from './postal-mime-mail-parser.js';
import { createPostalMimeMailParser } from './postal-mime-mail-parser.js';

/** Options of {@link createWorkerMailParser}: the parser's limits, and the threads. */
export interface WorkerMailParserOptions extends MailParseOptions {
  /** Worker threads that parse. Default 1. */
  readonly threads?: number;
  /**
   * Also run, in the worker, what a delivery derives from each parsed message: the extraction
   * engine (`ParseOutcome.extraction`) and the storage digest (`ParseOutcome.digest`; a body found
   * verbatim in the raw bytes then comes back empty, ADR 0023). Default true.
   */
  readonly extract?: boolean;
  /**
   * Messages smaller than this many bytes are parsed on the calling thread, without their
   * extraction (the caller runs the engine, as without `extract`). The hop to a worker (a copy, a
   * post, a structured clone back, two wake-ups) costs about what parsing a few KiB does, so it
   * pays only for larger messages. Default 0: every message goes to a worker.
   */
  readonly inlineBelowBytes?: number;
  /**
   * How long a message may take in its worker before the worker is stopped and replaced, and the
   * message (and the others it was holding) answered `ParseBudgetExceeded`; counted from when the
   * worker had loaded its parser. Default: ten times the time budget, at least 5 s. The budget itself is checked in the worker after each stage; this
   * catches a parse that never gets there.
   */
  readonly watchdogMs?: number;
  /**
   * The module each worker runs: this package's parse worker (`parse-worker.js` beside this
   * file) unless a bundle puts it elsewhere.
   */
  readonly workerModule?: URL;
  /**
   * Where the time the engine took in a worker is observed (`ephemail_extraction_duration_seconds`);
   * the delivery that gets the answer counts its outcome. Default: counts nothing.
   */
  readonly meter?: Meter;
}

/** A parser whose work runs on worker threads; `close` stops them. */
export interface WorkerMailParser extends PostalMimeMailParser {
  close(): Promise<void>;
}

interface Pending {
  readonly resolve: (outcome: ParseOutcome) => void;
  /** When the worker could start on it: when it was sent, or when the worker was ready, if later. */
  started: number;
}

interface Thread {
  worker: Worker;
  /** The worker has loaded the parser; until then the watchdog leaves it alone. */
  ready: boolean;
  /** False from a worker's death before it was ready until its replacement starts. */
  alive: boolean;
  /** Workers of this thread that died while loading, in a row. */
  failedLoads: number;
  readonly pending: Map<number, Pending>;
}

/**
 * How long to wait before replacing a worker that died before it was ready (a broken install,
 * say): one second, doubling with each such death in a row, up to a minute.
 */
const restartDelayMs = (failedLoads: number): number => Math.min(60_000, 1000 * 2 ** (failedLoads - 1));

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './parse-worker.ts' : './parse-worker.js', import.meta.url);
// Run from source (tests, benchmarks, under tsx), the worker is the .ts file beside this one. A
// worker thread does not get the parent's module hooks, so it registers tsx's before importing it.
const workerSource = (module: URL): string =>
  FROM_SOURCE
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`
    : `import(${JSON.stringify(module.href)});`;

const failure = (error: ParseFailure): ParseOutcome => ({ ok: false, error });

/**
 * Parses on worker threads, so a delivery's MIME parsing (and, by default, its extraction) runs
 * beside the event loop that serves SMTP and HTTP instead of on it, and a message that parses
 * for long holds up no other connection. The same parser and engine run in the worker as on the
 * main thread, so the outcomes are the same. The caps are checked before a message is sent to a
 * worker; the message goes to the thread with the fewest messages in hand. A worker that holds a
 * message past the watchdog, or that dies, is replaced; what it held is answered
 * `ParseBudgetExceeded`, which a delivery answers with a temporary failure (the sender retries).
 * A worker that dies while loading is tried again after a pause (1 s, doubling to at most a
 * minute); while no thread is running,
 * messages are parsed on the calling thread, so mail keeps flowing. Never throws.
 */
export const createWorkerMailParser = (options: WorkerMailParserOptions = {}): WorkerMailParser => {
  const { threads: count = 1, extract = true, watchdogMs: watchdog, workerModule = WORKER_URL, inlineBelowBytes = 0, meter = noMeter, ...parseOptions } = options;
  const source = workerSource(workerModule);
  if (!Number.isInteger(count) || count < 1) throw new RangeError('mail-parse: threads must be a positive integer');
  if (!Number.isInteger(inlineBelowBytes) || inlineBelowBytes < 0) throw new RangeError('mail-parse: inlineBelowBytes must be a non-negative integer');
  const limits: MailParseLimits = { ...DEFAULT_LIMITS, ...parseOptions };
  const watchdogMs = watchdog ?? Math.max(5000, limits.timeBudgetMs * 10);
  let nextId = 1;
  let closed = false;
  // Used for messages below `inlineBelowBytes`, and while no worker thread can start.
  let inThread: PostalMimeMailParser | undefined;

  const giveUp = (thread: Thread, now: number): void => {
    for (const [, pending] of thread.pending) {
      const elapsedMs = now - pending.started;
      pending.resolve(failure({ _tag: 'ParseBudgetExceeded', elapsedMs, budgetMs: limits.timeBudgetMs }));
    }
    thread.pending.clear();
  };

  const spawn = (thread?: Thread): Thread => {
    const worker = new Worker(source, { eval: true, workerData: { options: parseOptions, extract } });
    worker.unref();
    const current: Thread = thread ?? { worker, ready: false, alive: true, failedLoads: 0, pending: new Map() };
    current.worker = worker;
    current.ready = false;
    current.alive = true;
    worker.on('message', (reply: ParseReply | WorkerReady) => {
      if ('ready' in reply) {
        current.ready = true;
        current.failedLoads = 0;
        const now = performance.now();
        for (const pending of current.pending.values()) pending.started = now;
        return;
      }
      const pending = current.pending.get(reply.id);
      if (pending === undefined) return;
      current.pending.delete(reply.id);
      if (reply.extractionSeconds !== undefined) meter.observe('ephemail_extraction_duration_seconds', reply.extractionSeconds);
      pending.resolve(reply.outcome);
    });
    const replace = (): void => {
      if (current.worker !== worker || !current.alive) return;
      giveUp(current, performance.now());
      if (closed) return;
      if (current.ready) return void spawn(current);
      // Died while loading: it would again. Messages go to the other threads, or are parsed here,
      // until a new one is tried.
      current.alive = false;
      current.failedLoads += 1;
      setTimeout(() => {
        if (!closed && current.worker === worker) spawn(current);
      }, restartDelayMs(current.failedLoads)).unref();
    };
    worker.on('error', replace);
    worker.on('exit', replace);
    return current;
  };

  const pool = Array.from({ length: count }, () => spawn());

  // One timer for all threads, running only while some message is in a worker's hands.
  let timer: NodeJS.Timeout | undefined;
  const watch = (): void => {
    if (timer !== undefined || closed) return;
    timer = setInterval(() => {
      const now = performance.now();
      let busy = false;
      for (const thread of pool) {
        busy ||= thread.pending.size > 0;
        if (!thread.ready) continue;
        const first = thread.pending.values().next();
        // In insertion order, and `started` never decreases along it: the first is the oldest.
        if (!first.done && now - first.value.started > watchdogMs) {
          const stuck = thread.worker;
          giveUp(thread, now);
          spawn(thread);
          void stuck.terminate();
        }
      }
      if (!busy) {
        clearInterval(timer);
        timer = undefined;
      }
    }, Math.min(1000, Math.max(10, Math.floor(watchdogMs / 4))));
    timer.unref();
  };

  const parse = async (raw: Uint8Array, envelopeFrom = ''): Promise<ParseOutcome> => {
    if (raw.byteLength < inlineBelowBytes && !closed) return (inThread ??= createPostalMimeMailParser(parseOptions)).parse(raw, envelopeFrom);
    const checked = precheck(raw, limits);
    if (checked._tag !== 'BodyTypes') return failure(checked);
    if (closed) return failure({ _tag: 'MalformedMessage', reason: 'parser closed' });
    const alive = pool.filter((t) => t.alive);
    if (alive.length === 0) return (inThread ??= createPostalMimeMailParser(parseOptions)).parse(raw, envelopeFrom);
    const thread = alive.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = nextId++;
    // A copy of its own to hand over: the caller keeps `raw` (it stores the bytes).
    const copy = new Uint8Array(raw);
    const request: ParseRequest = { id, raw: copy, envelopeFrom };
    return new Promise<ParseOutcome>((resolve) => {
      thread.pending.set(id, { resolve, started: performance.now() });
      thread.worker.postMessage(request, [copy.buffer]);
      watch();
    });
  };

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    const now = performance.now();
    await Promise.all(
      pool.map(async (thread) => {
        giveUp(thread, now);
        await thread.worker.terminate();
      }),
    );
  };

  return { parse, limits, close };
};
