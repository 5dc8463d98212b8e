import { csvCells } from '@ephemail/core';
import test from 'ava';
import fc from 'fast-check';
import { createCsvStringifyEncoder } from '../src/index.js';

/** An RFC 4180 reader, written here so the encoder is checked against the standard, not itself. */
const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    i += 1;
    if (quoted && c === '"' && next === '"') {
      cell += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted) {
      cell += c;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && next === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else {
      cell += c;
    }
  }
  if (cell !== '' || row.length > 0) throw new Error('the text does not end with CRLF');
  return rows;
};

const encoder = createCsvStringifyEncoder();

test('csv encoder: plain cells are joined by commas, records end in CRLF', (t) => {
  t.is(encoder.encode([['id', 'label'], ['ident_1', 'signup']]), 'id,label\r\nident_1,signup\r\n');
  t.is(encoder.encode([]), '');
  t.is(encoder.encode([['', 'x', '']]), ',x,\r\n');
});

test('csv encoder: commas, quotes, CR and LF are quoted, quotes doubled', (t) => {
  t.is(encoder.encode([['a,b', 'say "hi"', 'line1\nline2', 'cr\rhere', 'crlf\r\nhere']]), '"a,b","say ""hi""","line1\nline2","cr\rhere","crlf\r\nhere"\r\n');
});

test('csv encoder: non-ASCII text passes through unchanged', (t) => {
  t.is(encoder.encode([['café ☕', 'Привет', '日本語']]), 'café ☕,Привет,日本語\r\n');
});

test('csv encoder: it never rewrites a cell itself (the formula guard is core\'s, applied once)', (t) => {
  t.is(encoder.encode([['=1+1', '-2', '@x']]), '=1+1,-2,@x\r\n');
  const guarded = csvCells({ label: '=HYPERLINK("http://evil.example","x")', n: -2, m: '+1', at: '@SUM(A1)', tab: '\tx', cr: '\r=1', ok: 'fine' }, ['label', 'n', 'm', 'at', 'tab', 'cr', 'ok']);
  t.deepEqual(guarded, ['\'=HYPERLINK("http://evil.example","x")', '-2', "'+1", "'@SUM(A1)", "'\tx", "'\r=1", 'fine']);
  t.is(encoder.encode([guarded]), '"\'=HYPERLINK(""http://evil.example"",""x"")",-2,\'+1,\'@SUM(A1),\'\tx,"\'\r=1",fine\r\n');
});

test('csv encoder: any rows read back as written through an RFC 4180 reader', (t) => {
  const cell = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\r', '\n', '=', 'é', '☕', '\t') , maxLength: 12 });
  fc.assert(
    fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), (rows) => {
      t.deepEqual(parseCsv(encoder.encode(rows)), rows);
    }),
    { numRuns: 500 },
  );
});

test('csv encoder: options change the delimiter and quote every cell', (t) => {
  const semicolons = createCsvStringifyEncoder({ delimiter: ';', recordDelimiter: '\n', quoteAll: true });
  t.is(semicolons.encode([['a', 'b;c']]), '"a";"b;c"\n');
});
