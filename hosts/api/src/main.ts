import type { Logger } from 'pino';
import { restartNotice } from './bootstrap.js';
import type { HostConfig } from './config.js';
import { ConfigError, loadConfig } from './config.js';
import type { RunningHost } from './host.js';
import { startHost } from './host.js';
import { createLogger } from './logger.js';

/**
 * The one-time notice of a new development key. It is for a person to copy, so it is plain text,
 * and it cannot be a log line: the logger redacts keys, which is the point of the logger. It goes
 * to stderr, the terminal's, so that stdout stays JSON lines only for whatever collects the logs.
 */
const printNewKey = (host: RunningHost, config: HostConfig, key: string): void => {
  console.error(
    [
      '',
      `ephemail is running on ${host.url} (development mode, ${config.DATABASE_URL}).`,
      '',
      'Development API key (shown once; store it now):',
      `  ${key}`,
      '',
      'Try it:',
      `  curl -s -X POST ${host.url}/v1/identities \\`,
      `    -H 'Authorization: Bearer ${key}' \\`,
      `    -H 'X-Org-Id: ${config.BOOTSTRAP_ORG_ID}' -H 'X-Project-Id: ${config.BOOTSTRAP_PROJECT_ID}' \\`,
      `    -H "Idempotency-Key: $(date +%s%N)" -H 'Content-Type: application/json' \\`,
      `    -d '{"label":"my first inbox"}'`,
      '',
    ].join('\n'),
  );
};

/**
 * Stops on SIGINT (Ctrl-C) and SIGTERM alike: "stopping…", then the host's "stopped", exit 0.
 * The handlers stay installed: under `npm start` a Ctrl-C reaches node twice (from the terminal
 * and forwarded by npm), and a second signal without a handler would kill the process mid-stop
 * (exit 130, no "stopped"). Repeats are ignored; the grace period bounds the stop.
 */
const stopOnSignals = (host: RunningHost, logger: Logger): void => {
  let stopping = false;
  // Shown whatever LOG_LEVEL: the person who pressed Ctrl-C should see the host heard it.
  const notice = logger.child({}, { level: 'info' });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    notice.info({ signal }, 'stopping…');
    host.close().then(
      () => {
        // The host logs "stopped" at info; below that level the person still sees it here.
        if (!logger.isLevelEnabled('info')) notice.info({}, 'stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

/** `npm start`: the host on its embedded defaults, configured from the environment. */
const main = async (): Promise<void> => {
  let config: HostConfig;
  try {
    config = loadConfig();
  } catch (error) {
    // No logger yet (LOG_LEVEL itself may be what is wrong): the variables go to stderr as text.
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
  // One logger for the host and this file, so that every line on stdout is one JSON object.
  const logger = createLogger(config.LOG_LEVEL);
  const host = await startHost(config, { logger }).catch((error: unknown) => {
    logger.fatal({ err: error }, 'could not start');
    process.exit(1);
  });
  stopOnSignals(host, logger);
  if (host.bootstrap.kind === 'created') printNewKey(host, config, host.bootstrap.key);
  else if (host.bootstrap.kind === 'existing') {
    // Shown whatever LOG_LEVEL, like the first start's notice: it tells the person who ran
    // `npm start` where the API is and how to get a key.
    logger.child({}, { level: 'info' }).info({ url: host.url, keyId: host.bootstrap.keyId }, restartNotice(host.url, host.bootstrap.keyId, config));
  }
};

void main();
