import { Command, CommanderError } from 'commander';
import type { CliIo } from './io.js';
import { keysCommand } from './keys-command.js';

export type { CliIo } from './io.js';

/** The `ephemail` command line: `keys create|list|revoke`. Answers the exit code. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {
  let exitCode = 0;
  const program = new Command('ephemail')
    .description('Disposable email identities: manage API keys and extract secrets from mail.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  program.addCommand(
    keysCommand(io, (code) => {
      exitCode = code;
    }),
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  return exitCode;
};
