/**
 * The thread of a delivery worker (see delivery-threads.ts): a core of its own over its own
 * connection to the host's store, which parses, authenticates, extracts and stores each message
 * it is sent, exactly as the host's own ingress would. Every event its core logs is passed to the
 * host thread, whose listeners (long-poll waiters, streams) it wakes. Never throws on a request:
 * each gets an answer with its id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEphemail, createTally } from '@ephemail/core';
import { createDnsResolver, createMailauthAuthenticator } from '@ephemail/mail-auth';
import { createPostalMimeMailParser, createWorkerMailParser } from '@ephemail/mail-parse';
import type { DeliveryReplies, DeliveryReply, DeliveryRequest, DeliverySetup } from './delivery-protocol.js';
import { INLINE_PARSE_BELOW_BYTES } from './delivery-protocol.js';
import { meteredStore } from './metered-store.js';
import { openStore } from './store-factory.js';
import { turnQueue } from './turn-queue.js';

const port = parentPort;
if (port === null) throw new Error('delivery-thread runs only as a worker thread');
const setup = workerData as DeliverySetup;
/** How long counts with nothing to go with wait before they are posted on their own. */
const METRICS_ALONE_AFTER_MS = 1000;

let outbox: DeliveryReply[] = [];
let metricsTimer: NodeJS.Timeout | undefined;
// What this thread counts goes to the host with the next post: a delivery's counts are made before
// its answer is queued, so they reach the host's /metrics no later than the SMTP reply is sent.
const tally = createTally(() => (metricsTimer ??= setTimeout(postMetrics, METRICS_ALONE_AFTER_MS)));
const post = (): void => {
  const taken = tally.take();
  if (taken !== undefined) outbox.push({ kind: 'metrics', tally: taken });
  if (outbox.length === 0) return;
  const replies: DeliveryReplies = outbox;
  outbox = [];
  port.postMessage(replies);
};
function postMetrics(): void {
  metricsTimer = undefined;
  post();
}
/** Queues an answer; what is queued goes in one post once the current microtasks have run. */
const reply = (message: DeliveryReply): void => {
  if (outbox.push(message) === 1) queueMicrotask(post);
};

// The host thread runs the checkpointer; this connection keeps only the automatic backstop.
const store = meteredStore(openStore(setup.databaseUrl, (error) => reply({ kind: 'warning', message: error.message }), { checkpointer: false }), tally);
const limits = setup.parseTimeBudgetMs === undefined ? { maxBytes: setup.maxMessageBytes } : { maxBytes: setup.maxMessageBytes, timeBudgetMs: setup.parseTimeBudgetMs };
// Large messages are parsed and extracted on parse threads of this thread's own, so that the
// store's work for one message overlaps the parsing of the next.
const parseThreads =
  setup.parseThreads > 0
    ? createWorkerMailParser(Object.assign({}, limits, { threads: setup.parseThreads, inlineBelowBytes: INLINE_PARSE_BELOW_BYTES, meter: tally }))
    : undefined;
const parser = parseThreads ?? createPostalMimeMailParser(limits);
const ephemail = createEphemail({
  store,
  inboxDomain: setup.inboxDomain,
  parser,
  authenticator: setup.mailAuth ? createMailauthAuthenticator({ resolver: createDnsResolver(setup.dnsServers) }) : undefined,
  maxMessagesPerIdentity: setup.maxMessagesPerIdentity,
  meter: tally,
});
ephemail.events.subscribe((event) => reply({ kind: 'event', event }));

let closing = false;
const handle = (request: DeliveryRequest): void => {
  if (request.kind === 'close') {
    if (closing) return;
    closing = true;
    // Commits what the connection holds; the host thread waits for `closed` or the exit.
    void Promise.all([ephemail.close(), parseThreads?.close()]).then(
      () => reply({ kind: 'closed' }),
      (error: unknown) => reply({ kind: 'closed', error: String((error as Error)?.message ?? error) }),
    );
    return;
  }
  ephemail.mail.ingress.deliver(request.raw, request.envelope).then(
    (outcomes) => reply({ kind: 'delivered', id: request.id, outcomes }),
    (error: unknown) => reply({ kind: 'failed', id: request.id, message: String((error as Error)?.message ?? error) }),
  );
};

// Requests start in the check phase, not in the port's callback: SMTP sessions that finish one
// after another would otherwise keep the callback running, and the store's group commit with it
// waiting, until they pause (see turn-queue.ts). The sessions then fell into step: twenty
// messages arrived, committed and were answered together, and the thread idled while the sessions
// spoke with the host thread.
port.on('message', turnQueue(handle));

// Requests posted while the thread was starting wait in its queue; the watchdog counts from here.
reply({ kind: 'ready' });
