import test from 'ava';
import type { BodySpan, ParseOutcome } from '@ephemail/core';
import { createTally, digestForStorage, extractForDelivery, MESSAGE_BOUNDS, METRICS } from '@ephemail/core';
import { createPostalMimeMailParser, createWorkerMailParser } from '../src/index.js';

// A time budget no parse here comes near, so a busy machine cannot turn an outcome into
// ParseBudgetExceeded; the budget and the watchdog have tests of their own.
const ROOMY = { timeBudgetMs: 60_000 };

/** A worker's successful outcome as a delivery reads it: each body it emptied read back from its span. */
const delivered = (outcome: Extract<ParseOutcome, { ok: true }>, raw: Uint8Array) => {
  const { extraction, digest, ...parsed } = outcome;
  const at = (span: BodySpan | undefined, body: string) => (span === undefined ? body : Buffer.from(raw).toString('utf8', span.start, span.end).replaceAll('\r\n', '\n'));
  const message = { ...parsed.message, text: at(digest?.textSpan, parsed.message.text), html: at(digest?.htmlSpan, parsed.message.html) };
  return { parsed: { ...parsed, message }, extraction, digest };
};

const crlf = (lines: string[]): Buffer => Buffer.from(lines.join('\r\n'));

const codeMail = (code: string): Buffer =>
  crlf([
    'From: "App" <no-reply@app.example.com>', 'To: a@inbox.test', `Subject: Your code`, 'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="b"', '', '--b', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '',
    `Your verification code is ${code}.=`, '', 'It expires in 10 minutes.', '--b', 'Content-Type: text/html; charset=utf-8', '',
    `<p>Your verification code is <b>${code}</b>.</p><a href="https://app.example.com/help">Help</a>`, '--b--', '',
  ]);

test('worker parser: the outcome is the in-thread parser\'s, with the engine\'s answer for a delivery', async (t) => {
  const inThread = createPostalMimeMailParser(ROOMY);
  const workers = createWorkerMailParser({ ...ROOMY, threads: 2 });
  t.teardown(() => workers.close());
  const raws = Array.from({ length: 12 }, (_, i) => codeMail(String(400_000 + i * 7_919)));
  const outcomes = await Promise.all(raws.map((raw) => workers.parse(raw, 'bounce@app.example.com')));
  for (const [i, raw] of raws.entries()) {
    const expected = await inThread.parse(raw, 'bounce@app.example.com');
    const outcome = outcomes[i];
    if (!outcome?.ok || !expected.ok) return t.fail('both parse');
    const { extraction, digest, parsed } = delivered(outcome, raw);
    t.deepEqual(parsed, expected);
    t.deepEqual(extraction, extractForDelivery(expected.message));
    t.deepEqual(digest, digestForStorage(raw, expected.message));
    t.is(extraction?.top?.value, String(400_000 + i * 7_919));
  }
});

test('worker parser: the time the engine took in a worker is observed on the meter; a message parsed inline is not', async (t) => {
  const meter = createTally();
  const workers = createWorkerMailParser({ ...ROOMY, meter, inlineBelowBytes: 64 });
  t.teardown(() => workers.close());
  const tiny = Buffer.from('From: a@app.example.com\r\nSubject: x\r\n\r\nhi\r\n');
  t.true((await workers.parse(tiny)).ok);
  t.true((await workers.parse(codeMail('482913'))).ok);
  const observed = meter.series('ephemail_extraction_duration_seconds').get('')!;
  t.is(observed[METRICS.ephemail_extraction_duration_seconds.buckets.length + 2], 1);
});

test('worker parser: a body found verbatim in the raw bytes comes back empty with its span; one over its bound or quoted-printable stays', async (t) => {
  const inThread = createPostalMimeMailParser(ROOMY);
  const workers = createWorkerMailParser(ROOMY);
  t.teardown(() => workers.close());
  const lines = Array.from({ length: 120 }, (_, n) => `Line ${n} of the message, in plain 8-bit text: grüße.`);
  const plain = crlf(['From: a@app.example.com', 'To: b@inbox.test', 'Subject: Plain', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', ...lines, '']);
  const outcome = await workers.parse(plain);
  const expected = await inThread.parse(plain);
  if (!outcome.ok || !expected.ok) return t.fail('both parse');
  t.is(outcome.message.text, '');
  t.truthy(outcome.digest?.textSpan);
  t.deepEqual(delivered(outcome, plain).parsed, expected);
  // Quoted-printable: decoded, so not in the raw bytes; it comes back as parsed.
  const qp = codeMail('123456');
  const qpOutcome = await workers.parse(qp);
  if (!qpOutcome.ok) return t.fail('parses');
  t.is(qpOutcome.digest?.textSpan, undefined);
  t.true(qpOutcome.message.text.includes('123456'));
  // Over the stored bound: the span covers the bound, and the whole text comes back (it is cut when stored).
  const long = crlf(['From: a@app.example.com', 'To: b@inbox.test', 'Subject: Long', 'Content-Type: text/plain; charset=utf-8', '', ...Array.from({ length: 6_000 }, () => lines[0]!), '']);
  const longOutcome = await workers.parse(long);
  const longExpected = await inThread.parse(long);
  if (!longOutcome.ok || !longExpected.ok) return t.fail('both parse');
  t.true(longExpected.message.text.length > MESSAGE_BOUNDS.text);
  t.truthy(longOutcome.digest?.textSpan);
  t.is(longOutcome.message.text, longExpected.message.text);
});

test('worker parser: the caller keeps its bytes, and the engine can be left to the caller', async (t) => {
  const workers = createWorkerMailParser({ ...ROOMY, extract: false });
  t.teardown(() => workers.close());
  const raw = codeMail('615243');
  const copy = Buffer.from(raw);
  const outcome = await workers.parse(raw);
  t.true(outcome.ok);
  t.false(outcome.ok && 'extraction' in outcome);
  t.true(raw.equals(copy), 'the bytes given are not handed over to the worker');
});

test('worker parser: messages below inlineBelowBytes are parsed on the calling thread, larger ones in a worker', async (t) => {
  const inThread = createPostalMimeMailParser(ROOMY);
  const small = codeMail('271828');
  const large = Buffer.concat([small.subarray(0, small.indexOf('\r\n\r\n')), Buffer.from(`\r\nX-Padding: ${'p'.repeat(4_000)}`), small.subarray(small.indexOf('\r\n\r\n'))]);
  const workers = createWorkerMailParser({ ...ROOMY, inlineBelowBytes: small.byteLength + 1 });
  t.teardown(() => workers.close());
  const [inline, offloaded] = [await workers.parse(small), await workers.parse(large)];
  if (!inline.ok || !offloaded.ok) return t.fail('both parse');
  // Only a worker runs the engine: an inline parse is the in-thread parser's outcome exactly.
  t.deepEqual(inline, await inThread.parse(small));
  const { extraction, parsed } = delivered(offloaded, large);
  t.deepEqual(parsed, await inThread.parse(large));
  t.is(extraction?.top?.value, '271828');
  t.throws(() => createWorkerMailParser({ inlineBelowBytes: -1 }), { message: /inlineBelowBytes/ });
});

test('worker parser: caps are checked before a worker sees the message', async (t) => {
  const workers = createWorkerMailParser({ maxBytes: 1_000 });
  t.teardown(() => workers.close());
  const outcome = await workers.parse(Buffer.alloc(2_000, 0x61));
  t.deepEqual(outcome, { ok: false, error: { _tag: 'MessageTooLarge', size: 2_000, max: 1_000 } });
});

test('worker parser: a worker that holds a message past the watchdog is replaced, and the next message parses', async (t) => {
  // The real worker, with a listener that spins forever on a message marked `X-Stall`: a parse
  // that never ends on any machine. (A large message stood in for it until a faster machine
  // parsed 88 MB in 0.7 s, inside the watchdog.)
  const real = new URL('../src/parse-worker.ts', import.meta.url).href;
  // Added after the real one, which takes each message first: a listener added before it
  // would start the port and receive the messages queued before the real one was listening.
  const source = [
    "import { parentPort } from 'node:worker_threads';",
    `await import(${JSON.stringify(real)});`,
    "parentPort.on('message', (request) => { if (Buffer.from(request.raw).includes('X-Stall')) for (;;); });",
  ].join('\n');
  const stalling = new URL(`data:text/javascript,${encodeURIComponent(source)}`);
  // A watchdog a small message never comes near, even on a cold thread of a busy machine.
  const workers = createWorkerMailParser({ ...ROOMY, workerModule: stalling, watchdogMs: 10_000 });
  t.teardown(() => workers.close());
  // Started, so the watchdog counts from the message and not from the thread's start.
  const first = await workers.parse(codeMail('100200'));
  t.true(first.ok && first.extraction?.top?.value === '100200', `the first small message: ${JSON.stringify(first.ok ? 'ok' : first.error)}`);
  const stalled = Buffer.concat([Buffer.from('X-Stall: yes\r\n'), codeMail('555666')]);
  t.like(await workers.parse(stalled), { ok: false, error: { _tag: 'ParseBudgetExceeded' } });
  // The replacement loads its parser, then serves small messages again.
  const next = await workers.parse(codeMail('300400'));
  t.true(next.ok && next.extraction?.top?.value === '300400', `the next small message: ${JSON.stringify(next.ok ? next.extraction?.top?.value : next.error)}`);
});

test('worker parser: hostile and broken input gets the in-thread parser\'s outcome, and the threads stay up', async (t) => {
  // A budget no parse here comes near, so a busy machine cannot turn one side's outcome into
  // ParseBudgetExceeded (the budget has tests of its own).
  const inThread = createPostalMimeMailParser({ maxParts: 1000, timeBudgetMs: 60_000 });
  const workers = createWorkerMailParser({ maxParts: 1000, threads: 2, timeBudgetMs: 60_000 });
  t.teardown(() => workers.close());
  let deep = 'Content-Type: text/plain\r\n\r\nx\r\n';
  for (let i = 40; i > 0; i -= 1) deep = `Content-Type: multipart/mixed; boundary="n${i}"\r\n\r\n--n${i}\r\n${deep}\r\n--n${i}--\r\n`;
  const parts = Array.from({ length: 900 }, (_, i) => `--x\r\nContent-Type: text/plain\r\n\r\np${i}\r\n`).join('');
  const hostile = [
    Buffer.from(`Subject: deep\r\n${deep}`),
    Buffer.from(`Subject: many\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n${parts}--x--\r\n`),
    Buffer.from(`${`X-Pad: ${'a'.repeat(998)}\r\n`.repeat(400)}Subject: big\r\n\r\nhi\r\n`),
    crlf(['Subject: =?x-unknown?Q?abc?=', 'Content-Type: multipart/alternative; boundary="z"', '', '--z', 'Content-Type: text/plain; charset=x-unknown', 'Content-Transfer-Encoding: base64', '', '!!!not*base64***', '--z--', '']),
    Buffer.from('Subject: bare LF\nContent-Type: text/plain\n\ncode 551902\n'),
    Buffer.from('Subject: nul\r\n\r\nab\u0000cd 771204\u0000\r\n'),
    Buffer.alloc(0),
    Buffer.from([0, 1, 2, 255, 254]),
    Buffer.from('\r\n\r\n--\r\n'),
  ];
  const outcomes = await Promise.all(hostile.map((raw) => workers.parse(raw)));
  for (const [i, raw] of hostile.entries()) {
    const expected = await inThread.parse(raw);
    const outcome = outcomes[i]!;
    if (outcome.ok && expected.ok) {
      const { extraction, digest, parsed } = delivered(outcome, raw);
      t.deepEqual(parsed, expected, `message ${i}`);
      t.deepEqual(extraction, extractForDelivery(expected.message), `message ${i}`);
      t.deepEqual(digest, digestForStorage(raw, expected.message), `message ${i}`);
    } else {
      t.deepEqual(outcome, expected, `message ${i}`);
    }
  }
  t.true((await workers.parse(codeMail('909090'))).ok, 'still serving');
});

test('worker parser: while no worker can start, messages are parsed on the calling thread', async (t) => {
  const broken = new URL(`data:text/javascript,${encodeURIComponent('throw new Error("broken install")')}`);
  const workers = createWorkerMailParser({ ...ROOMY, workerModule: broken });
  t.teardown(() => workers.close());
  // The first message may go to the worker before it dies: it is answered as a temporary failure.
  let outcome = await workers.parse(codeMail('246813'));
  for (let attempt = 0; attempt < 50 && !outcome.ok; attempt += 1) outcome = await workers.parse(codeMail('246813'));
  t.true(outcome.ok, 'parsed on the calling thread');
  t.false(outcome.ok && 'extraction' in outcome, 'the delivery runs the engine itself');
  const expected = await createPostalMimeMailParser(ROOMY).parse(codeMail('246813'));
  t.deepEqual(outcome, expected);
});

test('worker parser: after close every parse answers without a worker, and close is idempotent', async (t) => {
  const workers = createWorkerMailParser(ROOMY);
  t.true((await workers.parse(codeMail('123789'))).ok);
  await workers.close();
  await workers.close();
  t.like(await workers.parse(codeMail('123789')), { ok: false, error: { _tag: 'MalformedMessage', reason: 'parser closed' } });
});
