import { execFileSync } from 'node:child_process';

/**
 * Runs a fragment of a package's shell script (only `echo`, `test`, `case` and here-documents:
 * the part that writes a mail's text) under bash with exactly the given environment, and answers
 * what it prints. The fragment is cut from the script by the caller; nothing else of it runs.
 */
export const runFragment = (fragment: string, env: Readonly<Record<string, string>>): string =>
  execFileSync('bash', ['--noprofile', '--norc', '-c', fragment], { env: { PATH: '/usr/bin:/bin', ...env }, encoding: 'utf8' });
