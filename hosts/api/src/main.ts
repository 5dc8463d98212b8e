import { ConfigError, loadConfig } from './config.js';
import { startHost } from './host.js';

/** `npm start`: the host on its embedded defaults, configured from the environment. */
const main = async (): Promise<void> => {
  const config = loadConfig();
  const host = await startHost(config);
  if (host.bootstrap.kind === 'created') {
    const { key } = host.bootstrap;
    console.log(
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
  } else if (host.bootstrap.kind === 'existing') {
    console.log(
      `ephemail is running on ${host.url}. The development key ${host.bootstrap.keyId} was printed at first start; ` +
        `make another with: npx ephemail keys create --org ${config.BOOTSTRAP_ORG_ID} --project ${config.BOOTSTRAP_PROJECT_ID} --scopes identities:read,identities:write`,
    );
  }
  const stop = (signal: string) => {
    console.log(`${signal} received, shutting down`);
    host.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
};

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
