import { createEphemailClient, EphemailError, EphemailIdentityGoneError, EphemailTimeoutError, type EphemailClientOptions } from '@ephemail/client';
import { Command } from 'commander';
import type { CliIo } from './io.js';

/** Exit codes of `ephemail wait`, as its help and the host's README list them. */
export const WAIT_EXIT = { ok: 0, timeout: 1, usage: 2, notRevealed: 3, failed: 4, gone: 5 } as const;

interface WaitFlags {
  readonly identity?: string;
  readonly code?: boolean;
  readonly link?: boolean;
  readonly timeout: string;
  readonly after?: string;
  readonly url?: string;
  readonly org?: string;
  readonly project?: string;
}

type Settings = EphemailClientOptions & { readonly identity: string; readonly kind: 'code' | 'link'; readonly timeoutMs: number };

/** The settings from flags and `EPHEMAIL_*` variables, or what is wrong with them. */
const settingsOf = (flags: WaitFlags, env: NodeJS.ProcessEnv): Settings | string => {
  if (flags.identity === undefined || flags.identity.trim() === '') return 'give --identity <id>';
  if (flags.code && flags.link) return 'give --code or --link, not both';
  const seconds = Number(flags.timeout);
  if (!/^\d+(\.\d+)?$/.test(flags.timeout) || seconds <= 0 || seconds > 86_400) return '--timeout takes seconds, more than 0 and at most 86400';
  const values = {
    EPHEMAIL_URL: flags.url ?? env.EPHEMAIL_URL,
    EPHEMAIL_API_KEY: env.EPHEMAIL_API_KEY,
    EPHEMAIL_ORG_ID: flags.org ?? env.EPHEMAIL_ORG_ID,
    EPHEMAIL_PROJECT_ID: flags.project ?? env.EPHEMAIL_PROJECT_ID,
  };
  const missing = Object.entries(values).filter(([, value]) => value === undefined || value.trim() === '');
  if (missing.length > 0) return `set ${missing.map(([name]) => name).join(', ')} (see \`ephemail wait --help\`)`;
  if (!/^https?:\/\//.test(values.EPHEMAIL_URL!)) return 'EPHEMAIL_URL (or --url) must be an http:// or https:// address';
  return {
    baseUrl: values.EPHEMAIL_URL!,
    apiKey: values.EPHEMAIL_API_KEY!.trim(),
    orgId: values.EPHEMAIL_ORG_ID!,
    projectId: values.EPHEMAIL_PROJECT_ID!,
    identity: flags.identity.trim(),
    kind: flags.link ? 'link' : 'code',
    timeoutMs: Math.round(seconds * 1000),
  };
};

/** The message and exit code of a failed wait; never the API key, whatever the error held. */
const failureOf = (error: unknown, settings: Settings): { message: string; code: number } => {
  if (error instanceof EphemailTimeoutError) {
    return { message: `no ${settings.kind} arrived for ${settings.identity} within ${Math.round(settings.timeoutMs / 1000)} s`, code: WAIT_EXIT.timeout };
  }
  if (error instanceof EphemailIdentityGoneError) {
    // Waiting again cannot help: a script should make a new identity, not retry this one.
    const why = error.state === 'squashed' ? 'was squashed (deleted)' : 'has expired';
    return {
      message: `identity ${settings.identity} ${why}: it receives no more mail, so no ${settings.kind} can arrive; create a new identity (${error.code}, request ${error.requestId ?? 'unknown'})`,
      code: WAIT_EXIT.gone,
    };
  }
  if (error instanceof EphemailError && error.code === 'forbidden') {
    return {
      message: `the API key may not reveal secrets: it needs the secrets:read scope to print the raw ${settings.kind} (${error.code}, request ${error.requestId ?? 'unknown'})`,
      code: WAIT_EXIT.notRevealed,
    };
  }
  if (error instanceof EphemailError) {
    return { message: `the API answered ${error.status} ${error.code}: ${error.message} (request ${error.requestId ?? 'unknown'})`, code: WAIT_EXIT.failed };
  }
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const text = error instanceof Error ? `${error.message}${cause}` : String(error);
  return { message: `could not reach the API at ${settings.baseUrl}: ${text.split(settings.apiKey).join('<api key>')}`, code: WAIT_EXIT.failed };
};

/** Waits once, printing the raw value on stdout; answers the exit code. Ctrl-C stops the wait. */
const runWait = async (io: CliIo, settings: Settings, flags: WaitFlags): Promise<number> => {
  const client = createEphemailClient(settings);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    const options = { timeoutMs: settings.timeoutMs, after: flags.after, reveal: true, signal: controller.signal };
    const found =
      settings.kind === 'code'
        ? await client.waitForCode(settings.identity, options).then((r) => ({ value: r.code, redacted: r.redacted }))
        : await client.waitForLink(settings.identity, options).then((r) => ({ value: r.link, redacted: r.redacted }));
    if (found.value === undefined) {
      io.stderr.write(`ephemail wait: the ${settings.kind} arrived (${found.redacted}) but the API did not reveal it; the key needs secrets:read\n`);
      return WAIT_EXIT.notRevealed;
    }
    io.stdout.write(`${found.value}\n`);
    return WAIT_EXIT.ok;
  } catch (error) {
    if (controller.signal.aborted) {
      io.stderr.write('ephemail wait: interrupted\n');
      return 130;
    }
    const failure = failureOf(error, settings);
    io.stderr.write(`ephemail wait: ${failure.message}\n`);
    return failure.code;
  } finally {
    process.off('SIGINT', stop);
  }
};

const HELP_AFTER = `
Prints the raw code (or link) alone on stdout, e.g. CODE=$(npx ephemail wait --identity ident_... --code).
The latest code (or link) the identity received answers at once, also when its mail ranked a link
(or code) first; --after <extraction id> waits for a newer one.
Environment: EPHEMAIL_URL, EPHEMAIL_API_KEY (identities:read and secrets:read), EPHEMAIL_ORG_ID,
EPHEMAIL_PROJECT_ID; --url, --org and --project override them. The key is read only from the
environment, never from a flag, so it does not show in the process list.
Exit codes: 0 printed, 1 timed out, 2 bad usage or settings, 3 the key may not reveal secrets,
4 the API refused or could not be reached, 5 the identity is squashed or expired (no mail can
arrive; create a new one), 130 interrupted.
`;

/**
 * `ephemail wait --identity <id> [--code|--link] [--timeout 60]`: long-polls the API for the
 * identity's next code or link and prints it, for shell scripts and CI steps.
 */
export const waitCommand = (io: CliIo, setExit: (code: number) => void): Command =>
  new Command('wait')
    .description('wait for a code (or --link) to arrive for an identity and print it')
    .option('--identity <id>', 'the identity (ident_...) to wait on (required)')
    .option('--code', 'wait for a one-time code (the default)')
    .option('--link', 'wait for a magic link instead')
    .option('--timeout <seconds>', 'give up after this many seconds', '60')
    .option('--after <extraction id>', 'only an extraction newer than this one answers')
    .option('--url <url>', 'the API address (default EPHEMAIL_URL)')
    .option('--org <id>', 'the organization (default EPHEMAIL_ORG_ID)')
    .option('--project <id>', 'the project (default EPHEMAIL_PROJECT_ID)')
    .addHelpText('after', HELP_AFTER)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .action(async (flags: WaitFlags) => {
      const settings = settingsOf(flags, process.env);
      if (typeof settings === 'string') {
        io.stderr.write(`ephemail wait: ${settings}\n`);
        return setExit(WAIT_EXIT.usage);
      }
      setExit(await runWait(io, settings, flags));
    });
