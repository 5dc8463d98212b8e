import test from 'ava';
import fc from 'fast-check';
import { parseAddressList, routeMessage } from '../src/index.js';
import { readHeaderFields } from '../src/header-fields.js';

const raw = (text: string): Uint8Array => Buffer.from(text, 'utf8');

test('address list: addr-specs are found behind display names, comments, groups and source routes', (t) => {
  t.deepEqual(parseAddressList('"Doe, Jane" <jane@in.example>, bob@in.example (Bob, the builder)'), ['jane@in.example', 'bob@in.example']);
  t.deepEqual(parseAddressList('Team: a@in.example, "B" <b@in.example>; c@in.example'), ['a@in.example', 'b@in.example', 'c@in.example']);
  t.deepEqual(parseAddressList('<@relay.example,@hop.example:route@in.example>'), ['route@in.example']);
  t.deepEqual(parseAddressList('"odd \\" local"@in.example, user@[192.0.2.1]'), ['"odd \\" local"@in.example', 'user@[192.0.2.1]']);
  t.deepEqual(parseAddressList('=?UTF-8?Q?J=C3=BCrgen?= <juergen@in.example>'), ['juergen@in.example']);
});

test('address list: what is not an address is dropped, never thrown', (t) => {
  t.deepEqual(parseAddressList('undisclosed-recipients:;'), []);
  t.deepEqual(parseAddressList('<>'), []);
  t.deepEqual(parseAddressList('no address here, just words'), []);
  t.deepEqual(parseAddressList('"unterminated <x@in.example>'), []);
  t.deepEqual(parseAddressList('broken (comment <x@in.example>'), []);
});

test('address list: every generated address comes back out of a formatted list, in order', (t) => {
  const atom = fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,15}$/);
  const address = fc.tuple(atom, fc.stringMatching(/^[a-z0-9]{1,10}\.[a-z]{2,5}$/)).map(([local, domain]) => `${local}@${domain}`);
  const entry = fc.tuple(address, fc.constantFrom('bare', 'named', 'quoted', 'comment')).map(([addr, style]) => {
    if (style === 'named') return { addr, text: `Some One <${addr}>` };
    if (style === 'quoted') return { addr, text: `"Last, First (x)" <${addr}>` };
    if (style === 'comment') return { addr, text: `${addr} (a comment, with <brackets>)` };
    return { addr, text: addr };
  });
  fc.assert(
    fc.property(fc.array(entry, { minLength: 1, maxLength: 8 }), (entries) => {
      t.deepEqual(parseAddressList(entries.map((e) => e.text).join(', ')), entries.map((e) => e.addr));
    }),
  );
  t.pass();
});

test('address list: arbitrary input never throws', (t) => {
  fc.assert(fc.property(fc.string({ maxLength: 200 }), (text) => Array.isArray(parseAddressList(text))));
  t.pass();
});

test('header fields: folded lines are joined, names lower-cased, and the body is not read', (t) => {
  const fields = readHeaderFields(raw('To: a@in.example,\r\n\tb@in.example\r\nSUBJECT: hi\r\n\r\nTo: body@in.example\r\n'));
  t.deepEqual(fields, [
    { name: 'to', value: 'a@in.example,\tb@in.example' },
    { name: 'subject', value: 'hi' },
  ]);
  t.deepEqual(readHeaderFields(raw('To: a@in.example\n\nTo: b@in.example\n')), [{ name: 'to', value: 'a@in.example' }]);
});

test('header fields: only the first bytes of a huge header section are read', (t) => {
  const huge = `X-Pad: ${'y'.repeat(4096)}\r\nTo: late@in.example\r\n\r\n`;
  t.deepEqual(
    readHeaderFields(raw(huge), 1024).map((field) => field.name),
    ['x-pad'],
  );
});

test('route message: recipients come from X-Original-To, Delivered-To, To and Cc, each once, Bcc and From never', (t) => {
  const routing = routeMessage(
    raw(
      [
        'Return-Path: <bounce@sender.example>',
        'Delivered-To: final@upstream.example',
        'Delivered-To: Hop@In.example',
        'X-Original-To: hop@in.example',
        'From: sender@sender.example',
        'To: one@in.example, "Two" <two@in.example>',
        'Cc: ONE@in.example, three@in.example',
        'Bcc: hidden@in.example',
        '',
        'body',
      ].join('\r\n'),
    ),
    100,
  );
  t.deepEqual(routing, {
    mailFrom: 'bounce@sender.example',
    rcptTo: ['hop@in.example', 'final@upstream.example', 'one@in.example', 'two@in.example', 'three@in.example'],
  });
});

test('route message: a null or missing Return-Path gives a null MAIL FROM', (t) => {
  t.is(routeMessage(raw('Return-Path: <>\r\nTo: a@in.example\r\n\r\n'), 10).mailFrom, null);
  t.is(routeMessage(raw('To: a@in.example\r\n\r\n'), 10).mailFrom, null);
});

test('route message: at most maxRecipients addresses are kept', (t) => {
  const to = Array.from({ length: 500 }, (_, i) => `r${i}@in.example`).join(', ');
  const routing = routeMessage(raw(`X-Original-To: first@in.example\r\nTo: ${to}\r\n\r\n`), 5);
  t.deepEqual(routing.rcptTo, ['first@in.example', 'r0@in.example', 'r1@in.example', 'r2@in.example', 'r3@in.example']);
});
