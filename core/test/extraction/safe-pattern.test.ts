import test from 'ava';
import fc from 'fast-check';
import { checkPattern, matchBounded } from '../../src/extraction/safe-pattern.js';
import { ExtractionRulesSchema, extract } from '../../src/index.js';
import { message } from './helpers.js';

// Conservative: '(?:[a-z]+\\.)*' is harmless (the dot separates the repeats) yet has the nested shape.
const refused = ['(?:[a-z0-9-]+\\.)*example\\.com$', '(a+)+$', '(a*)*b', '(?:\\d+)+x', '(a|aa)+$', '(x|y)*z', '(\\w{1,100})+', '(a)\\1', '(?<n>a)\\k<n>', '(a', 'a)', '[', ''];
const accepted = ['\\b(\\d{6})\\b', '[@.]github\\.com$', '(?:code|PIN)[: ]+([A-Z0-9]{4,8})', '^Your .+ code$', '(a|b){6}', '[(+*]+', '(?<code>\\d{6})', 'a{2,32}'];

for (const source of refused) {
  test(`safe-pattern: ${JSON.stringify(source)} is refused`, (t) => {
    t.false(checkPattern(source).ok);
  });
}
for (const source of accepted) {
  test(`safe-pattern: ${JSON.stringify(source)} is accepted`, (t) => {
    t.deepEqual(checkPattern(source), { ok: true });
  });
}

test('safe-pattern: a pattern longer than 500 characters is refused', (t) => {
  t.false(checkPattern('a'.repeat(501)).ok);
});

test('safe-pattern: a catastrophic run is abandoned after its budget instead of stalling', (t) => {
  // checkPattern refuses this shape; the runner must hold even when handed one. 2^40 steps: no
  // machine, busy or quiet, finishes it, so the answer cannot depend on the load.
  t.is(matchBounded('(a+)+$', ['a'.repeat(40) + '!']), 'timeout');
});

/** A CPU clock that reports what the test says each run used, and counts the runs. */
const cpuClock = (usedPerRun: readonly number[]) => {
  let reads = 0;
  let now = 0;
  return {
    cpuMs: () => {
      // Read twice per run: before it, and after it was cut.
      if (reads % 2 === 1) now += usedPerRun[Math.min((reads - 1) / 2, usedPerRun.length - 1)]!;
      reads += 1;
      return now;
    },
    runs: () => Math.ceil(reads / 2),
  };
};

test('safe-pattern: a run cut after it used its budget of CPU time is a timeout at once', (t) => {
  const clock = cpuClock([25]);
  t.is(matchBounded('(a+)+$', ['a'.repeat(40) + '!'], { budgetMs: 25, cpuMs: clock.cpuMs }), 'timeout');
  t.is(clock.runs(), 1);
});

test('safe-pattern: a run the machine starved of CPU time is run again in a longer window before it is a timeout', (t) => {
  const clock = cpuClock([3, 10, 30]);
  t.is(matchBounded('(a+)+$', ['a'.repeat(40) + '!'], { budgetMs: 25, cpuMs: clock.cpuMs }), 'timeout');
  t.is(clock.runs(), 3);
});

test('safe-pattern: a run starved in every window ends as a timeout after a bounded number of windows', (t) => {
  const clock = cpuClock([0]);
  t.is(matchBounded('(a+)+$', ['a'.repeat(40) + '!'], { budgetMs: 2, cpuMs: clock.cpuMs }), 'timeout');
  t.is(clock.runs(), 6);
});

test('safe-pattern: matches carry the first group and the index, at most max per text', (t) => {
  t.deepEqual(matchBounded('code (\\d+)', ['code 1 code 22 code 333', 'none'], { max: 2 }), [
    [{ match: 'code 1', group: '1', index: 0 }, { match: 'code 22', group: '22', index: 7 }],
    [],
  ]);
});

test('safe-pattern: the runner answers as RegExp does on any text', (t) => {
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), (text) => {
      // A budget no run of this pattern comes near: this property is about answers, not time.
      const got = matchBounded('[0-9]{2,4}', [text], { max: 100, budgetMs: 10_000 });
      const want = [...text.matchAll(/[0-9]{2,4}/gu)].map((m) => m[0]);
      t.not(got, 'timeout');
      return got !== 'timeout' && JSON.stringify(got[0]!.map((m) => m.match)) === JSON.stringify(want);
    }),
  );
});

test('rules: the schema refuses a catastrophic code pattern, saying why', (t) => {
  const parsed = ExtractionRulesSchema.safeParse({ code_pattern: '(\\d+)+$' });
  t.false(parsed.success);
  t.regex(parsed.error!.issues[0]!.message, /nested quantifiers/);
});

test('rules: a sender pattern that runs out of time yields nothing for the message', (t) => {
  // Rules are validated before they reach the engine; this one bypasses the schema on purpose.
  const m = message({ envelopeFrom: `${'a'.repeat(40)}!@example.com`, subject: 'Code', text: 'Your code is 551903' });
  t.true(extract(m, { sender_pattern: '^(a+)+$' }).ruleMismatch);
});
