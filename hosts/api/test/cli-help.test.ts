import test from 'ava';
import { runCli } from '../src/cli/program.js';
import { captured } from './captured.js';

const help = async (argv: string[]) => {
  const io = captured();
  const code = await runCli(argv, io.streams);
  return { code, out: io.out(), err: io.err() };
};

// Each command's usage line, as its help prints it first.
const COMMANDS: readonly [string[], RegExp][] = [
  [[], /^Usage: ephemail \[options\] \[command\]/],
  [['keys'], /^Usage: ephemail keys \[options\] \[command\]/],
  [['keys', 'create'], /^Usage: ephemail keys create \[options\]/],
  [['keys', 'list'], /^Usage: ephemail keys list \[options\]/],
  [['keys', 'revoke'], /^Usage: ephemail keys revoke \[options\] <key-id>/],
  [['grants', 'mint'], /^Usage: ephemail grants mint \[options\]/],
  [['orgs', 'set-plan'], /^Usage: ephemail orgs set-plan \[options\]/],
  [['orgs', 'show'], /^Usage: ephemail orgs show \[options\]/],
  [['wait'], /^Usage: ephemail wait \[options\]/],
  [['extract'], /^usage: ephemail extract \[--reveal\] \[--explain\] <file-or-dir>\.\.\./],
];

for (const [command, usage] of COMMANDS) {
  for (const flag of ['--help', '-h']) {
    const name = ['ephemail', ...command, flag].join(' ');
    test(`cli help: \`${name}\` prints its usage on stdout and exits 0`, async (t) => {
      const { code, out, err } = await help([...command, flag]);
      t.is(code, 0, err);
      t.regex(out, usage);
      t.is(err, '');
    });
  }
}

test('cli help: `ephemail help extract` prints the same help as `ephemail extract --help`', async (t) => {
  const viaHelp = await help(['help', 'extract']);
  t.is(viaHelp.code, 0);
  t.is(viaHelp.out, (await help(['extract', '--help'])).out);
});

test('cli help: the program help lists every command', async (t) => {
  const { out } = await help(['--help']);
  t.regex(out, /^\s+extract\b/m);
  t.regex(out, /^\s+keys\b/m);
});
