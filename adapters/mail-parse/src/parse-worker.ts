/**
 * The thread of a worker parser (see worker-mail-parser.ts): parses each message it is sent with
 * the same parser the main thread would use and, when asked, runs the extraction engine on it, as
 * a delivery would. Answers every request with its id; never throws.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ParseOutcome } from '@ephemail/core';
import { digestForStorage, extractForDelivery, withoutSpannedBodies } from '@ephemail/core';
import type { MailParseOptions } from './postal-mime-mail-parser.js';
import { createPostalMimeMailParser } from './postal-mime-mail-parser.js';

/** One message to parse: its bytes (transferred), and the envelope sender when known. */
export interface ParseRequest {
  readonly id: number;
  readonly raw: Uint8Array;
  readonly envelopeFrom: string;
}

/** The outcome of one request, with the engine's answer in it when the worker ran the engine. */
export interface ParseReply {
  readonly id: number;
  readonly outcome: ParseOutcome;
  /** How long the engine took, when the worker ran it. */
  readonly extractionSeconds?: number;
}

/** Sent once the thread has loaded its parser. */
export interface WorkerReady {
  readonly ready: true;
}

interface WorkerSetup {
  readonly options: MailParseOptions;
  readonly extract: boolean;
}

const port = parentPort;
if (port === null) throw new Error('parse-worker runs only as a worker thread');
const setup = workerData as WorkerSetup;
const parser = createPostalMimeMailParser(setup.options);

/**
 * The answer to a request: the outcome with what a delivery would derive from it, the engine's
 * answer (and its time) and the storage digest. A body the digest finds in the raw bytes (within its bound) goes back empty: the
 * delivering thread then neither copies it in nor keeps it, and stores the span (ADR 0023).
 */
const replyFor = (id: number, outcome: ParseOutcome, raw: Uint8Array): ParseReply => {
  if (!outcome.ok || !setup.extract) return { id, outcome };
  try {
    const started = performance.now();
    const extraction = extractForDelivery(outcome.message);
    const extractionSeconds = (performance.now() - started) / 1000;
    const digest = digestForStorage(raw, outcome.message);
    return { id, outcome: { ok: true, message: withoutSpannedBodies(outcome.message, digest), extraction, digest }, extractionSeconds };
  } catch {
    // The delivering thread runs the engine itself and meets the same error there, where it is reported.
    return { id, outcome };
  }
};

port.on('message', (request: ParseRequest) => {
  void parser.parse(request.raw, request.envelopeFrom).then((outcome) => port.postMessage(replyFor(request.id, outcome, request.raw)));
});

// Messages posted while the thread was starting wait in its queue; the watchdog counts from here.
port.postMessage({ ready: true } satisfies WorkerReady);
