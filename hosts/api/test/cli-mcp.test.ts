import test from 'ava';
import { runCli } from '../src/cli/program.js';
import { captured } from './captured.js';

const run = async (argv: string[]) => {
  const io = captured();
  const code = await runCli(argv, io.streams);
  return { code, out: io.out(), err: io.err() };
};

test('cli mcp: `ephemail mcp --help` prints its usage, its options and the variables it reads', async (t) => {
  const { code, out } = await run(['mcp', '--help']);
  t.is(code, 0);
  t.regex(out, /^Usage: ephemail mcp \[options\]/);
  t.regex(out, /--http <port>/);
  t.regex(out, /--host <address>/);
  t.regex(out, /EPHEMAIL_URL, EPHEMAIL_API_KEY, EPHEMAIL_ORG_ID, EPHEMAIL_PROJECT_ID/);
});

test('cli mcp: a port that is not a number from 0 to 65535 exits 2 before anything starts', async (t) => {
  for (const port of ['http', '-1', '65536', '80.5']) {
    const { code, err, out } = await run(['mcp', '--http', port]);
    t.is(code, 2, port);
    t.regex(err, /--http takes a port number from 0 to 65535/);
    t.is(out, '');
  }
});
