import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runExample } from '../src/index.js';

test('example: embedding the core with SQLite provisions an inbox and logs its event', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ephemail-example-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lines: string[] = [];
  const types = await runExample(join(dir, 'example.db'), (line) => lines.push(line));
  t.deepEqual(types, ['identity.provisioned']);
  t.regex(lines[0]!, /^inbox [a-z0-9]+@inbox\.example\.com expires /);
});
