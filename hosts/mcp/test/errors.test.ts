import test from 'ava';
import fc from 'fast-check';
import { EphemailError, EphemailIdentityGoneError, EphemailTimeoutError } from '@ephemail/client';
import { describeFailure, failureResult } from '../src/errors.js';

const KEY = 'aid_RN01JnuiahvulRtA_yNsACEwYzso0x0NdrTz55LGHVkw2Sv2Yqca8yDmE';
const context = { apiKey: KEY, url: 'http://127.0.0.1:3000' };
const apiError = (code: string, status: number, details: unknown = {}) =>
  new EphemailError({ status, code, message: 'The API said no.', requestId: 'req_lqsH4dMr0Bm2O_0pvwaVphnL', details });

test('mcp errors: an API error names its code and status, the next step and the request id', (t) => {
  const failure = describeFailure(apiError('quota_exceeded', 403), context);
  t.is(failure.code, 'quota_exceeded');
  t.is(failure.text, 'ephemail error quota_exceeded (HTTP 403): The API said no. The plan allows no more live inboxes. Delete inboxes you no longer need with delete_inbox, then try again. [request req_lqsH4dMr0Bm2O_0pvwaVphnL]');
});

test('mcp errors: validation issues and missing scopes are spelled out', (t) => {
  const invalid = describeFailure(apiError('invalid_request', 400, { issues: [{ path: 'body.label', message: 'Too big' }] }), context);
  t.regex(invalid.text, /\(issues: body\.label: Too big\)\. An argument was refused/);
  const forbidden = describeFailure(apiError('forbidden', 403, { missing_scopes: ['identities:write'] }), context);
  t.regex(forbidden.text, /\(missing_scopes: identities:write\)\. The API key lacks a scope/);
});

test('mcp errors: a code without advice of its own still says what to do', (t) => {
  t.regex(describeFailure(apiError('http_502', 502), context).text, /^ephemail error http_502 \(HTTP 502\): .*Check the arguments and the MCP server configuration/);
});

test('mcp errors: a timeout says how long it waited and, after an outage, why', (t) => {
  const plain = describeFailure(new EphemailTimeoutError('ident_abc', 45_200), { ...context, waitingFor: 'code' });
  t.is(plain.code, 'wait_timeout');
  t.regex(plain.text, /^wait_timeout: no code arrived in inbox ident_abc within 45 s\. Check/);
  const outage = new EphemailTimeoutError('ident_abc', 3_000, { cause: new TypeError('fetch failed') });
  t.regex(describeFailure(outage, { ...context, waitingFor: 'link' }).text, /no link arrived .* The last attempt to ask the API failed \(fetch failed\)\./);
});

test('mcp errors: a timeout on an inbox that got no mail at all says so and names its address to check', (t) => {
  const seen = { email: 'k3x9@mcp.test', messages: 0 };
  const failure = describeFailure(new EphemailTimeoutError('ident_abc', 45_000), { ...context, waitingFor: 'link', seen });
  t.is(failure.text, 'wait_timeout: no link arrived in inbox ident_abc within 45 s. No email at all has reached it. Check that the site was given exactly k3x9@mcp.test and really sent the email (some send only after a further step, or refuse disposable addresses), then call again to keep waiting.');
});

test('mcp errors: a timeout on an inbox that got mail without the secret points at that mail, not at the address', (t) => {
  const seen = { email: 'k3x9@mcp.test', messages: 2, latest: { from: 'no-reply@app.example.com', subject: 'Welcome', receivedAt: '2026-03-01T12:00:00.000Z' } };
  const failure = describeFailure(new EphemailTimeoutError('ident_abc', 45_000), { ...context, waitingFor: 'code', seen });
  t.regex(failure.text, /^wait_timeout: no code arrived in inbox ident_abc within 45 s\. It holds 2 messages, the latest from no-reply@app\.example\.com \("Welcome", 2026-03-01T12:00:00\.000Z\), but the service found no code it is sure of in them .*read_latest_message/);
  t.false(failure.text.includes('Check that'), 'no advice to check the address: mail did arrive');
});

for (const [code, words] of [['identity_already_squashed', 'was deleted'], ['identity_expired', 'has expired']] as const) {
  test(`mcp errors: a wait on an inbox that ${words} says no secret can arrive and not to wait again (${code})`, (t) => {
    const error = new EphemailIdentityGoneError({ status: 409, code, message: 'gone', requestId: 'req_g', details: { identity_id: 'ident_abc' } });
    const failure = describeFailure(error, { ...context, waitingFor: 'code' });
    t.is(failure.code, code);
    t.regex(failure.text, new RegExp(`^ephemail error ${code} \\(HTTP 409\\): inbox ident_abc ${words}, so no code can arrive in it any more\\. Do not wait on it again: call create_inbox`));
    t.regex(failure.text, /\[request req_g\]$/);
  });
}

test('mcp errors: a network failure is api_unreachable, naming the address and its cause', (t) => {
  const error = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:3000') });
  const failure = describeFailure(error, context);
  t.is(failure.code, 'api_unreachable');
  t.regex(failure.text, /at http:\/\/127\.0\.0\.1:3000: connect ECONNREFUSED .*EPHEMAIL_URL/);
});

test('mcp errors: anything else is internal_error with its message only, never a stack', (t) => {
  const failure = describeFailure(new RangeError('boom'), context);
  t.is(failure.code, 'internal_error');
  t.false(failure.text.includes(' at '));
  t.deepEqual(failureResult(failure), { isError: true, content: [{ type: 'text', text: failure.text }] });
});

test('mcp errors: the API key never survives into an error text, wherever it appeared', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.string({ minLength: 8 }), fc.string(), fc.string(), (key, before, after) => {
        const ctx = { apiKey: key, url: 'http://127.0.0.1:3000' };
        const texts = [new Error(`${before}${key}${after}`), apiError('unauthorized', 401, { issues: [{ path: key, message: key }] })].map(
          (error) => describeFailure(error, ctx).text,
        );
        return texts.every((text) => !text.includes(key));
      }),
    ),
  );
});
