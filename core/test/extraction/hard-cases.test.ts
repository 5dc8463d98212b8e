import test from 'ava';
import { extract } from '../../src/index.js';
import { message } from './helpers.js';

const top = (over: Parameters<typeof message>[0]) => extract(message(over)).top;

test('extract: a code printed only in the subject is found', (t) => {
  const found = top({ subject: '739204 is your Acme sign-in code', html: '<p>Open the app to continue.</p>' });
  t.is(found?.type, 'otp');
  t.is(found?.value, '739204');
});

test('extract: digit groups split by a space are joined into one code', (t) => {
  const found = top({ subject: 'Confirm your email', text: 'Enter this code to confirm your email:\n\n381 942\n\nThanks!' });
  t.is(found?.value, '381942');
  t.is(found?.evidence.printed, '381 942');
});

test('extract: letter groups joined by a dash keep the dash', (t) => {
  const found = top({ subject: 'Sign-in code', text: 'Your sign-in code is listed below.\n\nKQVX-JWZG\n\nIgnore this mail if it was not you.' });
  t.is(found?.value, 'KQVX-JWZG');
});

test('extract: one digit per table cell is read as one code', (t) => {
  const cells = [5, 0, 8, 2, 7, 1].map((d) => `<td style="border:1px solid #ccc">${d}</td>`).join('');
  const html = `<p>Your verification code:</p><table><tr>${cells}</tr></table><p>It expires soon.</p>`;
  t.is(top({ subject: 'Verify your account', html })?.value, '508271');
});

test('extract: an alphanumeric code is found', (t) => {
  const found = top({ subject: 'Verification', text: 'Use the following code to verify your identity: 7KQ2ZD\nDo not share it.' });
  t.is(found?.value, '7KQ2ZD');
});

test('extract: the origin-bound line "@host #code" is trusted', (t) => {
  const found = top({ subject: 'Welcome', text: 'Welcome back.\n\n@app.example.com #604118' });
  t.is(found?.value, '604118');
  t.true((found?.confidence ?? 0) > 0.8);
});

test('extract: the code wins over order numbers, amounts, dates, years, phones, postcodes and durations', (t) => {
  const text = [
    'Order #88412093 of 12/03/2024 - total $1,250.00 (2025 pricing).',
    'Call us on +1 415 555 0134 or visit 1200 Example Street, Suite 400, Springfield 62704.',
    'Your verification code is 415263. It expires in 10 minutes.',
    'Ref. 552901 · Invoice 731004',
  ].join('\n');
  const result = extract(message({ subject: 'Your code', text }));
  t.is(result.top?.value, '415263');
  const decoys = ['88412093', '1250', '2025', '4155550134', '62704', '552901', '731004'];
  for (const c of result.candidates.slice(1)) t.false(decoys.includes(c.value) && c.confidence >= 0.5, c.value);
});

test('extract: durations and ticket numbers alone are not confident codes', (t) => {
  const result = extract(message({ subject: 'Ticket update', text: 'Ticket 48213 was updated. This page expires in 30 minutes. Invoice 552190 is attached.' }));
  t.true((result.top?.confidence ?? 0) < 0.5);
});

test('extract: an HTML-only link is reported by its href, not its visible text', (t) => {
  const href = 'https://app.example.com/auth/confirm?token=Qm9vA7c2ZkL1xYp3Rt8wNe4H';
  const html = `<p>Confirm your email address to finish signing up.</p><a href="${href}" style="background:#333">https://app.example.com/confirm</a>`;
  const found = top({ subject: 'Confirm your email', html });
  t.is(found?.type, 'magic_link');
  t.is(found?.value, href);
  t.is(found?.link_kind, 'verify_email');
});

test('extract: a click-tracking redirector is reported as clicked, with the destination in evidence', (t) => {
  const dest = 'https://app.example.com/reset-password?token=Zx81KqP0vLm3Nw7RtY2aB5cD';
  const wrapped = `https://click.mailer.example.net/ls/click?upn=u001.abc&url=${encodeURIComponent(dest)}`;
  const html = `<p>Someone asked to reset your password.</p><a href="${wrapped}">Reset password</a>`;
  const found = top({ subject: 'Reset your password', html });
  t.is(found?.value, wrapped);
  t.is(found?.evidence.unwrapped, dest);
  t.is(found?.link_kind, 'password_reset');
});

test('extract: after-login redirect parameters are not unwrapped', (t) => {
  const link = `https://auth.example.com/verify?token=pk_8f2a9c71d04e4b3a9f11&type=magiclink&redirect_to=${encodeURIComponent('https://app.example.com/')}`;
  const found = top({ subject: 'Your sign-in link', html: `<p>Follow the link to sign in.</p><a href="${link}">Sign in</a>` });
  t.is(found?.value, link);
  t.is(found?.evidence.unwrapped, undefined);
  t.is(found?.link_kind, 'sign_in');
});

test('extract: among logo, help, privacy and unsubscribe links the sign-in link wins', (t) => {
  const signIn = 'https://app.example.com/login/magic?token=T0k3nSecretValue9876abcd';
  const html = [
    '<a href="https://app.example.com/"><img src="https://app.example.com/logo.png" alt=""></a>',
    '<p>Click the button below to sign in.</p>',
    `<a href="${signIn}" class="button">Sign in to Acme</a>`,
    '<a href="https://app.example.com/help/articles/4021">Help center</a>',
    '<a href="https://app.example.com/privacy">Privacy</a>',
    '<a href="https://app.example.com/email/unsubscribe/u8Hq2LmZ0pXc4RtY7wKe">Unsubscribe</a>',
  ].join('\n');
  const result = extract(message({ subject: 'Sign in to Acme', html }));
  t.is(result.top?.value, signIn);
  t.is(result.top?.link_kind, 'sign_in');
  t.true((result.top?.confidence ?? 0) >= 0.5);
});

test('extract: link kinds come from the URL, the button and the subject', (t) => {
  const kind = (subject: string, path: string, label: string) =>
    top({ subject, html: `<p>${label} below.</p><a href="https://app.example.com/${path}?token=Ab12Cd34Ef56Gh78Ij90Kl12">${label}</a>` })?.link_kind;
  t.is(kind('Reset your password', 'password/reset', 'Reset password'), 'password_reset');
  t.is(kind('Verify your email', 'email/verify', 'Verify email'), 'verify_email');
  t.is(kind('You have been invited', 'join-team', 'Accept invitation'), 'invite');
  t.is(kind('Your sign-in link', 'auth/magic', 'Sign in'), 'sign_in');
});

test('extract: a notification with a plain login link yields no confident extraction', (t) => {
  const html = '<p>Your password was changed on Monday, May 5, 2025 at 10:41 from 203.0.113.7.</p><a href="https://app.example.com/login">Log in</a>';
  t.true((top({ subject: 'Your password was changed', html })?.confidence ?? 0) < 0.5);
});

test('extract: a code shown in the text beats the button that carries the same code', (t) => {
  const html = '<p>Enter the following code to continue:</p><p>552019</p><a href="https://app.example.com/verify?code=552019&flow=abc">or verify here</a>';
  t.is(top({ subject: 'Verify your account', html })?.type, 'otp');
});

test('extract: a parenthetical code next to a button leaves the button as the secret', (t) => {
  const link = 'https://id.example.com/ui/password/init?userID=281739&code=QW7TZP';
  const html = `<p>Please use the button below to reset your password. (Code QW7TZP)</p><a href="${link}" style="background:#36c">Reset password</a>`;
  t.is(top({ subject: 'Reset password', html })?.value, link);
});

test('extract: HTML entities in hrefs are decoded', (t) => {
  const html = '<p>Verify your email address.</p><a href="https://app.example.com/verify?user=1&amp;token=Lp0Qw9Er8Ty7Ui6Op5As4Df3">Verify</a>';
  t.is(top({ subject: 'Verify', html })?.value, 'https://app.example.com/verify?user=1&token=Lp0Qw9Er8Ty7Ui6Op5As4Df3');
});

test('extract: candidates are at most five, ranked, each with a confidence in [0, 1]', (t) => {
  const links = Array.from({ length: 9 }, (_, i) => `<a href="https://app.example.com/item/${i}/Zq${i}x8Lm2Np4Rt6Vw${i}">Item ${i}</a>`).join('');
  const result = extract(message({ subject: 'Verify your email', html: `<p>Your code is 918273.</p>${links}` }));
  t.true(result.candidates.length <= 5);
  for (let i = 1; i < result.candidates.length; i += 1) {
    t.true((result.candidates[i - 1]?.confidence ?? 0) >= (result.candidates[i]?.confidence ?? 0));
  }
  t.true(result.candidates.every((c) => c.confidence >= 0 && c.confidence <= 1));
});

// Its speed is measured in benchmarks/extraction (hostile inputs), never asserted here.
test('extract: a hostile message with tens of thousands of anchors still yields its code', (t) => {
  const html = `<p>Your code is 551902.</p>${'<div><a href="https://x.example.com/a">more text</a></div>'.repeat(40_000)}`;
  t.is(extract(message({ html })).top?.value, '551902');
});

test('a long hex token on a line of its own after one word asking to confirm is a command to send back, and surely the code', (t) => {
  const token = '5be0c17a93d24e6f80a1b2c3d4e5f60718293a4b';
  const text = `Hello,\n\nTo finish joining the list, reply to this mail, or send a mail to list-request@lists.example.org whose body is only:\n\n    confirm ${token}\n\nIf you did not ask to join, delete this mail.`;
  const top = extract(message({ subject: 'Your request to join the list', text })).top;
  t.is(top?.value, token);
  t.true((top?.confidence ?? 0) >= 0.9, String(top?.confidence));
});

test('a labelled code is introduced by its word in Finnish, Estonian, Hungarian, Croatian, Serbian, Swahili, Sardinian, Occitan and Tamil compounds and spellings', (t) => {
  for (const label of ['Vahvistuskoodi', 'Kinnituskood', 'Ellenőrzőkód', 'Kontrolni kôd', 'Кôд за потврђивање', 'Msimbo wa uthibitishaji', 'Còdighe de verìfica', 'Vaquí lo còdi', 'உங்கள் குறியீடு']) {
    const text = `Hei,\n\n${label}: Tq4mZ8kw2N\n\nhttps://files.example.org/apps/signup/verify/Hq2LbX9sTe4KwP7mRz3NvY8cJd5Gf6Ua/Tq4mZ8kw2N\n`;
    const code = extract(message({ subject: 'Nextstep', text })).candidates.find((c) => c.type === 'otp');
    t.is(code?.value, 'Tq4mZ8kw2N', label);
    t.true((code?.confidence ?? 0) >= 0.5, `${label}: ${code?.confidence}`);
  }
});

test('of a code and a link, the one offered as the alternative ("Or use this link", "Ali vnesi kodo") ranks second, and both stay sure', (t) => {
  const link = 'https://news.example.org/members/?token=Vq8LmT3xRk2PzW9sNc4YbH7dJf6Ga5Ue&action=signin';
  const from = { address: 'noreply@news.example.org', name: 'News' };
  const codeFirst = `<p>Hello,</p><p>Your sign-in code: <b>482913</b></p><p>Or use this link to sign in:</p><p><a href="${link}" style="background:#222;padding:10px">Sign in</a></p>`;
  const linkFirst = `<p>Pozdravljeni,</p><p>Odpri povezavo, da se prijaviš:</p><p><a href="${link}" style="background:#222;padding:10px">Prijava</a></p><p>Ali vnesi kodo:</p><p>482913</p>`;
  for (const [html, first] of [[codeFirst, '482913'], [linkFirst, link]] as const) {
    const { candidates } = extract(message({ from, subject: 'Sign in to News', html }));
    t.is(candidates[0]?.value, first);
    t.true(candidates.slice(0, 2).every((c) => c.confidence >= 0.5), candidates.map((c) => c.confidence).join(' '));
  }
});
