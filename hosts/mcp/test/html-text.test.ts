import test from 'ava';
import fc from 'fast-check';
import { htmlToText } from '../src/html-text.js';

test('html text: tags go, blocks end lines, and each link keeps its address after its words', (t) => {
  const html = '<html><head><title>T</title><style>p{color:red}</style></head><body><p>Your code is <b>904817</b>.</p>' +
    '<p><a class="btn" href="https://app.example.com/verify?t=1&amp;u=2">Verify&nbsp;email</a></p><script>alert(1)</script><!-- hidden --></body></html>';
  t.is(htmlToText(html), 'Your code is 904817.\nVerify email (https://app.example.com/verify?t=1&u=2)');
});

test('html text: entities decode, numeric ones included, and bogus ones are left as written', (t) => {
  t.is(htmlToText('caf&#233; &#x2014; &lt;ok&gt; &bogus; &#99999999;'), 'café — <ok> &bogus; &#99999999;');
});

test('html text: text without markup comes back with its whitespace tidied', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '1', '.', 'é') }), (text) => {
      const tidy = text.replace(/ +/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
      return htmlToText(text) === tidy;
      }),
    ),
  );
});

test('html text: a hostile body of unclosed tags and comments is read in linear time', (t) => {
  const hostile = '<a href="x">'.repeat(50_000) + '<script>'.repeat(50_000) + '<!--'.repeat(50_000);
  // CPU time, not wall time: a busy machine stretches the second but not the work.
  const started = process.cpuUsage();
  htmlToText(hostile);
  const used = process.cpuUsage(started);
  t.true((used.user + used.system) / 1000 < 1_000, 'well under a second of CPU for 1.2 MB');
});
