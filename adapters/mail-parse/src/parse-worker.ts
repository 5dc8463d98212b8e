/**
 * The thread of a worker parser (see worker-mail-parser.ts): parses each message it is sent with
 * the same parser the main thread would use and, when asked, runs the extraction engine on it, as
 * a delivery would. Answers every request with its id; never throws.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Extraction, ParseOutcome } from '@ephemail/core';
import { extractForDelivery } from '@ephemail/core';
import type { MailParseOptions } from './postal-mime-mail-parser.js';
import { createPostalMimeMailParser } from './postal-mime-mail-parser.js';

/** One message to parse: its bytes (transferred), and the envelope sender when known. */
export interface ParseRequest {
  readonly id: number;
  readonly raw: Uint8Array;
  readonly envelopeFrom: string;
}

export interface ParseReply {
  readonly id: number;
  readonly outcome: ParseOutcome;
  readonly extraction?: Extraction;
}

interface WorkerSetup {
  readonly options: MailParseOptions;
  readonly extract: boolean;
}

const port = parentPort;
if (port === null) throw new Error('parse-worker runs only as a worker thread');
const setup = workerData as WorkerSetup;
const parser = createPostalMimeMailParser(setup.options);

export interface WorkerReady {
  readonly ready: true;
}

port.on('message', (request: ParseRequest) => {
  void parser.parse(request.raw, request.envelopeFrom).then((outcome) => {
    let extraction: Extraction | undefined;
    if (outcome.ok && setup.extract) {
      try {
        extraction = extractForDelivery(outcome.message);
      } catch {
        // The main thread runs the engine itself and meets the same error there, where it is reported.
      }
    }
    const reply: ParseReply = extraction === undefined ? { id: request.id, outcome } : { id: request.id, outcome, extraction };
    port.postMessage(reply);
  });
});

// Messages posted while the thread was starting wait in its queue; the watchdog counts from here.
port.postMessage({ ready: true } satisfies WorkerReady);
