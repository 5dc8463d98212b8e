import test from 'ava';
import type { Prepared } from '../extraction/lopo.js';
import { labelOf, secretShown } from '../extraction/real/compose.js';
import { blocktransMsgid, djangoRenderer } from '../extraction/real/django.js';
import { holdsCodeAndLink } from '../extraction/real/evaluate.js';
import { gettext, parsePo } from '../extraction/real/gettext.js';
import { phpAssignments, sprintf } from '../extraction/real/php.js';
import { wrap } from '../extraction/real/products/horde.js';
import { renderPhpTemplate } from '../extraction/real/products/kronolith.js';
import { substitute } from '../extraction/real/products/mailman.js';
import { translateGenshi } from '../extraction/real/products/tryton.js';
import { rngFor } from '../extraction/real/random.js';
import { isSealed } from '../extraction/real/seal.js';
import type { Rendered } from '../extraction/real/types.js';

test('a product is sealed when the hex SHA-256 of its name starts with 0 to 4', (t) => {
  // sha256("payload") starts with 2, sha256("ghost") with e, sha256("parse-server") with 0.
  t.true(isSealed('payload'));
  t.true(isSealed('parse-server'));
  t.false(isSealed('ghost'));
});

test('a product the shared corpus holds is never sealed, whatever its hash', (t) => {
  t.true(isSealed('allauth'));
  t.false(isSealed('allauth', new Set(['allauth', 'nodebb'])));
});

test('a .po catalogue gives translations by msgid and context, and leaves fuzzy and empty entries untranslated', (t) => {
  const cat = parsePo(`msgid ""
msgstr "Content-Type: text/plain; charset=UTF-8\\n"

msgid "Hello from %(site_name)s!"
msgstr "Hallo von %(site_name)s!"

msgctxt "report:web.user.email_validation:"
msgid "Validate"
msgstr "Prüfen"

#, fuzzy
msgid "Thanks"
msgstr "Danke"

msgid "Untranslated"
msgstr ""
`);
  t.is(gettext(cat, 'Hello from %(site_name)s!'), 'Hallo von %(site_name)s!');
  t.is(gettext(cat, 'Validate', 'report:web.user.email_validation:'), 'Prüfen');
  t.is(gettext(cat, 'Validate'), 'Validate');
  t.is(gettext(cat, 'Thanks'), 'Thanks');
  t.is(gettext(cat, 'Untranslated'), 'Untranslated');
});

test('a blocktrans body is looked up under the msgid Django builds, trimmed when asked', (t) => {
  t.is(blocktransMsgid('Hello from {{ site_name }}!', false), 'Hello from %(site_name)s!');
  t.is(blocktransMsgid('\n  One\n  two {{ x }}\n', true), 'One two %(x)s');
});

test('a Django template renders its translated blocktrans with its with-bindings, and its trans strings', (t) => {
  const cat = new Map([['Hello from %(site_name)s!', 'Hallo von %(site_name)s!'], ['Thanks', 'Danke']]);
  const django = djangoRenderer([], cat, false);
  const out = django.string('{% load i18n %}{% autoescape off %}{% blocktrans with site_name=site.name %}Hello from {{ site_name }}!{% endblocktrans %} {% trans "Thanks" %} {{ url|safe }}{% endautoescape %}', { site: { name: 'Acme' }, url: 'https://a.example/?x=1&y=2' });
  t.is(out, 'Hallo von Acme! Danke https://a.example/?x=1&y=2');
});

test('PHP language files give each assignment with its literals concatenated and escapes applied', (t) => {
  const src = `<?php
$PALANG['a'] = 'It\\'s %s';
$PALANG['b'] = "Line\\nnext " . $CONF['admin_name'];
$PALANG['c'] = 'single \\n stays';`;
  const got = phpAssignments(src, 'PALANG', { admin_name: 'Postmaster' });
  t.is(got.get('a'), "It's %s");
  t.is(got.get('b'), 'Line\nnext Postmaster');
  t.is(got.get('c'), 'single \\n stays');
  t.is(sprintf(got.get('a') ?? '', 'fine'), "It's fine");
});

test('Mailman templates substitute $name and ${dotted.name}, keep unknown names and turn $$ into $', (t) => {
  t.is(substitute('confirm $token to ${event.mlist.fqdn_listname}, $$5, $unknown', { token: 'abc', 'event.mlist.fqdn_listname': 'l@x' }), 'confirm abc to l@x, $5, $unknown');
});

test('Genshi text runs are translated around their expressions with the whitespace kept', (t) => {
  const out = translateGenshi('<p>We received a request,\n  ${user.email}</p><a>\n  Reset\n</a>', (id) => ({ 'We received a request,': 'Anfrage erhalten,', Reset: 'Zurücksetzen' })[id] ?? id);
  t.is(out, '<p>Anfrage erhalten,\n  ${user.email}</p><a>\n  Zurücksetzen\n</a>');
});

const render = (over: Partial<Rendered>): Rendered => ({ template: 't', lang: 'de', subject: 's', source: 'src', ...over });

test('a label takes the secret from the render, with link_purpose only for links and also[] when there is a second secret', (t) => {
  const r = render({ text: 'Code 123456 or https://x.example/a?b=1&c=2', secret: { kind: 'otp', value: '123456' }, also: [{ kind: 'magic_link', value: 'https://x.example/a?b=1&c=2', link_purpose: 'sign_in' }] });
  t.deepEqual(labelOf(r, 'ghost', 'ghost--t--de--1.eml'), {
    file: 'ghost--t--de--1.eml', source: 'src', lang: 'de', kind: 'otp', value: '123456', link_purpose: null, product: 'ghost', template: 't', notes: '',
    also: [{ kind: 'magic_link', value: 'https://x.example/a?b=1&c=2', link_purpose: 'sign_in' }],
  });
  t.like(labelOf(render({ text: 'no secret' }), 'nagios', 'f'), { kind: 'none', value: null, link_purpose: null });
});

test('a secret counts as shown when it occurs in the text or in the HTML with its entities decoded', (t) => {
  const link = { kind: 'magic_link' as const, value: 'https://x.example/r?a=1&b=2' };
  t.true(secretShown(render({ html: '<a href="https://x.example/r?a=1&amp;b=2">go</a>' }), link));
  t.true(secretShown(render({ text: 'go to https://x.example/r?a=1&b=2' }), link));
  t.false(secretShown(render({ text: 'go to https://x.example/r?a=1' }), link));
});

test('a seeded stream gives the same values for the same key and others for another', (t) => {
  const a = rngFor('k');
  const b = rngFor('k');
  const c = rngFor('other');
  const draw = (r: typeof a): number[] => [r.next(), r.int(0, 9), r.next()];
  t.deepEqual(draw(a), draw(b));
  t.notDeepEqual(draw(rngFor('k')), draw(c));
});

const prepared = (label: object): Prepared => ({ sample: { label, raw: Buffer.alloc(0), product: 'p', template: 't', split: 'dev' }, message: undefined, row: { candidates: [], target: -1 } }) as unknown as Prepared;

test('a mail counts for the both-secrets figure only when its label and also[] hold a code and a link', (t) => {
  t.true(holdsCodeAndLink(prepared({ kind: 'otp', value: '1', also: [{ kind: 'magic_link', value: 'https://x.example/' }] })));
  t.true(holdsCodeAndLink(prepared({ kind: 'magic_link', value: 'https://x.example/', also: [{ kind: 'otp', value: '1' }] })));
  t.false(holdsCodeAndLink(prepared({ kind: 'magic_link', value: 'https://x.example/', also: [{ kind: 'magic_link', value: 'https://y.example/' }] })));
  t.false(holdsCodeAndLink(prepared({ kind: 'otp', value: '1' })));
});

test('Horde-style wrapping breaks lines at spaces within the width and leaves a longer word whole', (t) => {
  t.is(wrap('aaa bbb ccc', 7), 'aaa bbb\nccc');
  t.is(wrap('go https://x.example/very/long/path now', 10), 'go\nhttps://x.example/very/long/path\nnow');
  t.is(wrap('one\n\ntwo', 76), 'one\n\ntwo');
});

test('a PHP view template translates its _() strings, fills known expressions and drops the newline right after ?>', (t) => {
  const src = '<?php echo _("Date:") ?> <?php echo $this->date ?>\n\n<?php echo _("Bye") ?>\n';
  t.is(renderPhpTemplate(src, new Map([['Date:', 'Datum:']]), { 'echo $this->date': '09.07.25' }), 'Datum: 09.07.25\nBye');
  t.throws(() => renderPhpTemplate('<?php phpinfo() ?>', new Map(), {}), { message: /unhandled PHP/ });
});
