import test from 'ava';
import fc from 'fast-check';
import { decodeEntities, htmlToView } from '../../src/index.js';

test('htmlToView: drops head, style, script and hidden preheaders', (t) => {
  const view = htmlToView('<html><head><title>T</title><style>p{color:red}</style></head><body><div style="display:none">preheader 999999</div><p>Hello</p><script>var x=1</script></body></html>');
  t.is(view.text, 'Hello');
});

test('htmlToView: keeps anchors with their visible text and flags image-only ones', (t) => {
  const view = htmlToView('<a href="https://a.example.com/x?a=1&amp;b=2"><b>Open</b> now</a><a href="https://a.example.com/"><img src="l.png" alt="Logo"></a>');
  t.deepEqual(view.links[0], { href: 'https://a.example.com/x?a=1&b=2', text: 'Open now' });
  t.is(view.links[1]?.imageOnly, true);
});

test('htmlToView: separates blocks by lines and cells by tabs', (t) => {
  const lines = htmlToView('<p>a</p><p>b</p><table><tr><td>1</td><td>2</td></tr></table>').text.split('\n');
  t.deepEqual(lines.filter((l) => l.length > 0), ['a', 'b', '1\t2']);
});

// How fast it does so is measured in benchmarks/extraction (hostile inputs), not asserted here.
test('htmlToView: survives thousands of unclosed tags', (t) => {
  const view = htmlToView('<a href="x'.repeat(20000) + '<div '.repeat(20000));
  t.is(typeof view.text, 'string');
});

test('htmlToView: a stray "<" is text, not the start of a tag', (t) => {
  t.is(htmlToView('<p>1 < 2 and 3 > 2</p>').text, '1 < 2 and 3 > 2');
});

test('decodeEntities: numeric, hex and named references', (t) => {
  t.is(decodeEntities('&#52;&#x32;&amp;&eacute;&nbsp;&bogus;'), '42&é\u00a0&bogus;');
});

test('decodeEntities: decodes what the reference pattern finds, and keeps the rest as written', (t) => {
  // The rule as a pattern replace, as it was first written; decodeEntities reads by character.
  const named: Record<string, string> = { amp: '&', lt: '<', nbsp: '\u00a0', eacute: '\u00e9', zwnj: '' };
  const valid = (n: number): boolean => n > 0 && n <= 0x10ffff && (n < 0xd800 || n > 0xdfff);
  const expected = (s: string): string =>
    s.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));?/g, (raw, dec?: string, hex?: string, name?: string) => {
      const code = dec !== undefined ? Number.parseInt(dec, 10) : hex !== undefined ? Number.parseInt(hex, 16) : Number.NaN;
      if (dec !== undefined || hex !== undefined) return valid(code) ? String.fromCodePoint(code) : raw;
      return named[name ?? ''] ?? raw;
    });
  const piece = fc.constantFrom('&', '&#', '&#x', '&#X', '#', 'x', '0', '00000', '1', '9', 'a', 'F', 'g', ';', ' ', 'amp', 'nbsp', 'lt', 'eacute', 'zwnj', 'bogus', '55357', '1114112', 'é');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
      const text = pieces.join('');
      t.is(decodeEntities(text), expected(text));
    }),
    { numRuns: 1000 },
  );
});

test('htmlToView: drops invisible characters, then folds each run of blanks to one space', (t) => {
  // The rule as two replaces, as it was first written; the view reads text runs in one pass.
  const expected = (s: string): string => s.replace(/[\u200b-\u200f\u2060\ufeff\u00ad]|\u034f/g, '').replace(/[ \t\r\n\f\u00a0]+/g, ' ').trim();
  const piece = fc.constantFrom('a', 'B', '7', ' ', '\t', '\r', '\n', '\f', '\u00a0', '\u200b', '\u200f', '\u2060', '\ufeff', '\u00ad', '\u034f', 'é');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
      const text = pieces.join('');
      t.is(htmlToView(`<p>${text}</p>`).text, expected(text));
    }),
  );
});

test('htmlToView: a hidden style hides only the element whose own attributes hold it', (t) => {
  const html = '<P>a</P><div title="x">b</div><SPAN STYLE="DISPLAY: none">c<span>d</span>e</SPAN><td style="color:red">f</td><img style="display:none">g<div style="font-size:0"/>h';
  t.is(htmlToView(html).text, 'a\n\nb\nf\tg\nh');
});

test('htmlToView: reads an anchor\'s attributes as the first matches of name = value, left to right', (t) => {
  // The rule as a pattern over the whole tag text, as it was first written; the view reads it in place.
  const attribute = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g;
  const first = (tag: string, name: string): string | undefined => {
    for (const m of tag.matchAll(attribute)) if (m[1]?.toLowerCase() === name) return decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
    return undefined;
  };
  const piece = fc.constantFrom(' ', '\t', '\u00a0', '=', '"', "'", '`', 'href', 'HRef', 'x.href', '-href', '_', 'alt', 'class', 'btn', 'v', 'a&amp;b', '&#66;', '/', ':', '9', 'href=v', 'x.href=w', 'alt=A');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 24 }), fc.array(piece, { maxLength: 24 }), (a, b) => {
      const [anchor, image] = [a.join(''), b.join('')];
      const href = first(anchor, 'href');
      const links = htmlToView(`<a ${anchor}><img ${image}></a>`).links;
      t.deepEqual(links.map((l) => l.href), href === undefined ? [] : [href.trim()]);
      const alt = (first(image, 'alt') ?? ' ').trim();
      if (href !== undefined && alt.length > 0) t.is(links[0]?.text, alt);
    }),
    { numRuns: 1000 },
  );
});
