import test from 'ava';
import { toAuthenticationView } from '../../src/mail/authentication-view.js';

test('authentication view: checks that ran show each of spf, dkim and dmarc with its result and details', (t) => {
  const view = toAuthenticationView({
    spf: { result: 'softfail', domain: 'mail.example.com' },
    dkim: [
      { result: 'fail', domain: 'other.example', selector: 's1', aligned: false },
      { result: 'pass', domain: 'example.com', selector: 's2', aligned: true },
    ],
    dmarc: { result: 'pass', domain: 'example.com', policy: 'reject' },
    dkimAligned: true,
  });
  t.true(view.checked);
  t.deepEqual(view.spf, { result: 'softfail', domain: 'mail.example.com' });
  t.is(view.dkim.result, 'pass', 'one passing signature makes DKIM pass');
  t.true(view.dkim.aligned);
  t.is(view.dkim.signatures.length, 2);
  t.deepEqual(view.dmarc, { result: 'pass', domain: 'example.com', policy: 'reject' });
});

test('authentication view: an unsigned message is dkim none; checks that did not run are not_checked, never absent', (t) => {
  const unsigned = toAuthenticationView({
    spf: { result: 'pass', domain: 'example.com' },
    dkim: [],
    dmarc: { result: 'fail', domain: 'example.com', policy: 'none' },
    dkimAligned: false,
  });
  t.is(unsigned.dkim.result, 'none');
  const off = toAuthenticationView(null);
  t.false(off.checked);
  t.deepEqual([off.spf.result, off.dkim.result, off.dmarc.result], ['not_checked', 'not_checked', 'not_checked']);
});
