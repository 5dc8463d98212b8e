import { readFile } from 'node:fs/promises';
import test from 'ava';
import { GENERATED_FILE, generateTypes } from '../scripts/generate.js';

test('types: src/generated/openapi.ts is what the host\'s current OpenAPI document generates (run `npm run generate -w adapters/client`)', async (t) => {
  t.timeout(120_000);
  const [committed, current] = await Promise.all([readFile(GENERATED_FILE, 'utf8'), generateTypes()]);
  if (committed === current) return t.pass();
  const a = committed.split('\n');
  const b = current.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  t.fail(`the committed types differ from the document at line ${line + 1}:\n- ${a[line] ?? '(end)'}\n+ ${b[line] ?? '(end)'}\nRun \`npm run generate -w adapters/client\`.`);
});
