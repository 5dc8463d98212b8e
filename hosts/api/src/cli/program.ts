import { Command, CommanderError } from 'commander';
import { runExtractCommand } from './extract-command.js';
import type { CliIo } from './io.js';
import { keysCommand } from './keys-command.js';
import { grantsCommand } from './grants-command.js';
import { orgsCommand } from './orgs-command.js';
import { mcpCommand } from './mcp.js';
import { waitCommand } from './wait-command.js';

export type { CliIo } from './io.js';

/** The `ephemail` command line: `keys create|list|revoke`, `orgs set-plan|show`, `grants mint`, `extract`, `mcp`, `wait`. Answers the exit code. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {
  // `extract` has a fixed line-oriented contract of its own (one JSON object per file).
  if (argv[0] === 'extract') return runExtractCommand(argv.slice(1), io);
  if (argv[0] === 'help' && argv[1] === 'extract') return runExtractCommand(['--help'], io);
  let exitCode = 0;
  const program = new Command('ephemail')
    .description('Disposable email identities: manage API keys and extract secrets from mail.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  program.command('extract').description('extract [--reveal] <file-or-dir>...: one JSON line per .eml file with its codes and links');
  const setExit = (code: number): void => {
    exitCode = code;
  };
  program.addCommand(keysCommand(io, setExit));
  program.addCommand(orgsCommand(io, setExit));
  program.addCommand(grantsCommand(io, setExit));
  program.addCommand(mcpCommand(io, setExit));
  program.addCommand(waitCommand(io, setExit));
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  return exitCode;
};
