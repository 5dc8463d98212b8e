import test from 'ava';
import { withDeadline } from '../src/deadline-resolver.js';

const codeOf = async (lookup: Promise<unknown>): Promise<unknown> => lookup.then(() => 'answered', (error) => error?.code);

test('deadline: a lookup after the deadline fails with ETIMEOUT without asking the name server', async (t) => {
  let asked = 0;
  const resolver = withDeadline(async () => (asked += 1), 1_000, () => 1_000);
  t.is(await codeOf(resolver('a.test', 'TXT')), 'ETIMEOUT');
  t.is(asked, 0);
});

test('deadline: a lookup before the deadline gets the answer of the name server', async (t) => {
  const resolver = withDeadline(async (name, rrtype) => [[`${rrtype} ${name}`]], 2_000, () => 1_000);
  t.deepEqual(await resolver('a.test', 'TXT'), [['TXT a.test']]);
});

test('deadline: a slow lookup is cut off at the deadline', async (t) => {
  const never = () => new Promise<never>(() => undefined);
  const resolver = withDeadline(never, Date.now() + 20);
  t.is(await codeOf(resolver('a.test', 'TXT')), 'ETIMEOUT');
});

test('deadline: a resolver that throws synchronously still rejects', async (t) => {
  const resolver = withDeadline(() => {
    throw Object.assign(new Error('bad name'), { code: 'EBADNAME' });
  }, Date.now() + 1_000);
  t.is(await codeOf(resolver('a.test', 'TXT')), 'EBADNAME');
});
