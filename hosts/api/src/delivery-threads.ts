import { Worker } from 'node:worker_threads';
import type { DeliveryOutcome, EventRecord, InboundEnvelope, MailIngress, TallySnapshot } from '@ephemail/core';
import type { DeliveryReplies, DeliveryReply, DeliveryRequest, DeliverySetup } from './delivery-protocol.js';

/** Options of {@link startDeliveryThreads}. */
export interface DeliveryThreadsOptions {
  /** What each thread opens and how it delivers (see delivery-thread.ts). */
  readonly setup: DeliverySetup;
  /** Threads that deliver. Default 1. */
  readonly threads?: number;
  /**
   * The host's own ingress: it checks recipients (a read, on the host thread), and it delivers
   * while no thread is running (one that keeps dying while it loads), so mail keeps flowing.
   */
  readonly local: MailIngress;
  /** Each event a thread's core logged: the host hands it to its own listeners. */
  readonly onEvent: (event: EventRecord) => void;
  /** A thread's store warning, a thread that died, a thread replaced by the watchdog. */
  readonly onWarning: (message: string) => void;
  /** What a thread counted (its tally, taken): the host merges it into the meter /metrics serves. */
  readonly onMetrics?: (tally: TallySnapshot) => void;
  /**
   * How long one delivery may take in a thread before the thread is stopped and replaced; what it
   * held fails, which SMTP answers 451 (the sender retries). Counted from when the thread was
   * ready. Default 60 s: a delivery waits at most for the parse budget and the store's timeouts.
   */
  readonly watchdogMs?: number;
  /**
   * How long a thread may take to load (open its store, compile its modules) while deliveries
   * wait for it; past it, it is stopped as one that died while loading. Default 30 s.
   */
  readonly loadTimeoutMs?: number;
  /** The module each thread runs (delivery-thread.js beside this file, unless a test swaps it). */
  readonly workerModule?: URL;
  /**
   * The most each thread's old generation (V8's heap of long-lived objects) may hold, in MiB.
   * Default 256. The bound also sets how much garbage V8 lets pile up before a full collection: a
   * thread holds about 30 MiB that live, and without a bound its heap grew to 110 MiB between
   * collections in some runs and not in others. A thread that needs more than its bound stops;
   * what it held fails (SMTP 451, so the sender retries) and another thread takes its place.
   */
  readonly heapLimitMb?: number;
}

/** The ingress the transports use, and how to stop the threads. */
export interface DeliveryThreads {
  readonly ingress: MailIngress;
  /** Deliveries in hand finish (up to `graceMs`), then each thread commits and closes its store. */
  close(graceMs: number): Promise<void>;
}

interface Pending {
  readonly resolve: (outcomes: readonly DeliveryOutcome[]) => void;
  readonly reject: (error: Error) => void;
  /** When the thread could start on it: when it was sent, or when the thread was ready, if later. */
  started: number;
}

interface Thread {
  worker: Worker;
  /** When `worker` was started. */
  spawnedAt: number;
  ready: boolean;
  /** False from a death before the thread was ready until its replacement starts. */
  alive: boolean;
  failedLoads: number;
  readonly pending: Map<number, Pending>;
  /** Called when the thread has nothing left in hand (set while closing). */
  onIdle?: () => void;
}

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './delivery-thread.ts' : './delivery-thread.js', import.meta.url);
// From source (tests, benchmarks under tsx) the thread registers tsx's hooks before importing its
// module: a worker thread does not get the parent's.
const workerSource = (module: URL): string =>
  FROM_SOURCE
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`
    : `import(${JSON.stringify(module.href)});`;

/** 1 s after a thread died while loading, doubling with each such death in a row, up to a minute. */
const restartDelayMs = (failedLoads: number): number => Math.min(60_000, 1000 * 2 ** (failedLoads - 1));

/**
 * Runs deliveries on worker threads, each with a core of its own over its own connection to the
 * host's store, so that parsing, extraction and the store's writes and commits leave the event
 * loop that serves SMTP and HTTP. Two connections of one process over one store are two hosts
 * over one store, which core supports as such (house rule 7): the store decides, and events
 * reach the host's waiters through `onEvent` at once (or through the store, at their next poll).
 *
 * A message goes to the thread with the fewest in hand. A thread that dies, or that holds a
 * delivery past the watchdog, is replaced, and what it held fails, which SMTP answers with a
 * temporary failure; a redelivery of a message the thread had stored is recognised as such. A
 * thread that dies while loading is tried again after a pause; meanwhile the host's own ingress
 * delivers.
 */
export const startDeliveryThreads = (options: DeliveryThreadsOptions): DeliveryThreads => {
  const { setup, threads: count = 1, local, onEvent, onWarning, onMetrics, workerModule = WORKER_URL } = options;
  if (!Number.isInteger(count) || count < 1) throw new RangeError('delivery threads: threads must be a positive integer');
  const watchdogMs = options.watchdogMs ?? 60_000;
  const loadTimeoutMs = options.loadTimeoutMs ?? 30_000;
  const heapLimitMb = options.heapLimitMb ?? 256;
  if (!Number.isInteger(heapLimitMb) || heapLimitMb < 16) throw new RangeError('delivery threads: heapLimitMb must be an integer of at least 16');
  const source = workerSource(workerModule);
  let nextId = 1;
  let closed = false;

  const failAll = (thread: Thread, reason: string): void => {
    const error = new Error(reason);
    const held = [...thread.pending.values()];
    thread.pending.clear();
    for (const pending of held) pending.reject(error);
  };

  /** A thread that died or hung while loading would again at once: the host's ingress delivers until a new try. */
  const loadFailed = (thread: Thread): void => {
    const { worker } = thread;
    thread.alive = false;
    thread.failedLoads += 1;
    setTimeout(() => {
      if (!closed && thread.worker === worker) spawn(thread);
    }, restartDelayMs(thread.failedLoads)).unref();
  };

  const spawn = (thread?: Thread): Thread => {
    const worker = new Worker(source, { eval: true, workerData: setup, resourceLimits: { maxOldGenerationSizeMb: heapLimitMb } });
    const current: Thread = thread ?? { worker, spawnedAt: 0, ready: false, alive: true, failedLoads: 0, pending: new Map() };
    current.worker = worker;
    current.spawnedAt = performance.now();
    current.ready = false;
    current.alive = true;
    const receive = (reply: DeliveryReply): void => {
      switch (reply.kind) {
        case 'ready': {
          current.ready = true;
          current.failedLoads = 0;
          const now = performance.now();
          for (const pending of current.pending.values()) pending.started = now;
          return;
        }
        case 'event':
          return onEvent(reply.event);
        case 'metrics':
          return onMetrics?.(reply.tally);
        case 'warning':
          return onWarning(`delivery thread: ${reply.message}`);
        case 'closed':
          if (reply.error !== undefined) onWarning(`delivery thread: closing its store failed: ${reply.error}`);
          return;
        case 'delivered':
        case 'failed': {
          const pending = current.pending.get(reply.id);
          if (pending === undefined) return;
          current.pending.delete(reply.id);
          if (reply.kind === 'delivered') pending.resolve(reply.outcomes);
          else pending.reject(new Error(reply.message));
        }
      }
    };
    worker.on('message', (replies: DeliveryReplies) => replies.forEach(receive));
    const replace = (error?: Error): void => {
      if (current.worker !== worker || !current.alive) return;
      const reason = `delivery thread stopped${error === undefined ? '' : `: ${error.message}`}`;
      failAll(current, reason);
      if (closed) return;
      onWarning(`${reason}; starting another`);
      if (current.ready) return void spawn(current);
      loadFailed(current);
    };
    worker.on('error', replace);
    worker.on('exit', () => replace());
    // The thread holds the process only while it holds deliveries (see `deliver`).
    worker.unref();
    return current;
  };

  const pool = Array.from({ length: count }, () => spawn());

  // One timer for all threads, running only while some delivery is in a thread's hands.
  let timer: NodeJS.Timeout | undefined;
  const watch = (): void => {
    if (timer !== undefined || closed) return;
    timer = setInterval(() => {
      const now = performance.now();
      let busy = false;
      for (const thread of pool) {
        busy ||= thread.pending.size > 0;
        if (thread.pending.size === 0 || !thread.alive) continue;
        if (!thread.ready) {
          if (now - thread.spawnedAt <= loadTimeoutMs) continue;
          const hung = thread.worker;
          failAll(thread, `delivery thread did not load within ${loadTimeoutMs} ms`);
          onWarning(`delivery thread did not load within ${loadTimeoutMs} ms; trying again later`);
          loadFailed(thread);
          void hung.terminate();
          continue;
        }
        // In insertion order, and `started` never decreases along it: the first is the oldest.
        const oldest = thread.pending.values().next().value!.started;
        if (now - oldest <= watchdogMs) continue;
        const stuck = thread.worker;
        failAll(thread, `delivery took longer than ${watchdogMs} ms; its thread was replaced`);
        onWarning(`delivery thread held a message past ${watchdogMs} ms; replacing it`);
        spawn(thread);
        void stuck.terminate();
      }
      if (!busy) {
        clearInterval(timer);
        timer = undefined;
      }
    }, Math.min(1000, Math.max(10, Math.floor(Math.min(watchdogMs, loadTimeoutMs) / 4))));
    timer.unref();
  };

  const deliver = (raw: Uint8Array, envelope: InboundEnvelope): Promise<readonly DeliveryOutcome[]> => {
    if (closed) return Promise.reject(new Error('delivery threads closed'));
    const alive = pool.filter((thread) => thread.alive);
    if (alive.length === 0) return local.deliver(raw, envelope);
    const thread = alive.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = nextId++;
    // The caller hands `raw` over (MailIngress.deliver): a buffer that holds the message alone
    // moves to the thread as it is. A view into a larger one (Node's pool for small buffers) is
    // copied, so that the rest of that buffer stays where it is.
    const owned = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength && raw.buffer instanceof ArrayBuffer;
    const bytes = owned ? raw : new Uint8Array(raw);
    const request: DeliveryRequest = { kind: 'deliver', id, raw: bytes, envelope };
    return new Promise<readonly DeliveryOutcome[]>((resolve, reject) => {
      const settle = (): void => {
        if (thread.pending.size > 0) return;
        thread.worker.unref();
        thread.onIdle?.();
      };
      thread.pending.set(id, {
        resolve: (outcomes) => (settle(), resolve(outcomes)),
        reject: (error) => (settle(), reject(error)),
        started: performance.now(),
      });
      thread.worker.ref();
      thread.worker.postMessage(request, [bytes.buffer as ArrayBuffer]);
      watch();
    });
  };

  /** Resolves after `ms`, without holding the process open. */
  const after = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

  const idle = (thread: Thread): Promise<void> =>
    new Promise((resolve) => {
      if (thread.pending.size === 0) return resolve();
      thread.onIdle = resolve;
    });

  const stop = async (thread: Thread, graceMs: number): Promise<void> => {
    const { worker } = thread;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    if (thread.alive) {
      await Promise.race([idle(thread), after(graceMs)]);
      failAll(thread, 'delivery threads closed');
      const stopped = new Promise<void>((resolve) => worker.on('message', (replies: DeliveryReplies) => replies.some((reply) => reply.kind === 'closed') && resolve()));
      worker.ref();
      worker.postMessage({ kind: 'close' } satisfies DeliveryRequest);
      // The thread commits what its connection holds; one that does not answer is stopped anyway.
      await Promise.race([stopped, exited, after(Math.max(1000, graceMs))]);
    }
    // Resolves at once for a thread that has exited already.
    await worker.terminate();
  };

  const close = async (graceMs: number): Promise<void> => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    await Promise.all(pool.map((thread) => stop(thread, graceMs)));
  };

  return { ingress: { checkRecipient: local.checkRecipient, deliver }, close };
};
