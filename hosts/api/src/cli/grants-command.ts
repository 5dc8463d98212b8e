import { createEphemail, createMemoryDocumentStore } from '@ephemail/core';
import { Command } from 'commander';
import { loadConfig } from '../config.js';
import { freeGrantSecret } from '../free-grants.js';
import type { CliIo } from './io.js';

/**
 * `ephemail grants mint`: one anonymous grant for the free tier's creation route, signed with the
 * host's grant secret (same settings as the host). For a backend that hands grants to its pages.
 */
export const grantsCommand = (io: CliIo, setExit: (code: number) => void): Command => {
  const grants = new Command('grants')
    .description('mint anonymous grants for the free tier')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  grants
    .command('mint')
    .description('mint one grant for POST /v1/free/identity (one-time, short-lived)')
    .option('--ttl <seconds>', 'lifetime in seconds (1..3600)', '300')
    .option('--json', 'print one JSON object')
    .action((options: { ttl: string; json?: boolean }) => {
      const config = loadConfig();
      const secret = freeGrantSecret(config);
      if (secret === undefined) {
        io.stderr.write('no grant secret: set FREE_GRANT_SECRET (or run in production mode with a data key)\n');
        return setExit(2);
      }
      const ttl = Number(options.ttl);
      if (!Number.isInteger(ttl) || ttl < 1 || ttl > 3600) {
        io.stderr.write('--ttl must be a whole number of seconds from 1 to 3600\n');
        return setExit(2);
      }
      const service = createEphemail({ store: createMemoryDocumentStore(), inboxDomain: config.INBOX_DOMAIN, free: { grantSecret: secret } });
      const minted = service.free.mintGrant(ttl * 1000);
      io.stdout.write(options.json ? `${JSON.stringify(minted)}\n` : `${minted.grant}\n(one-time; expires ${minted.expires_at})\n`);
    });
  return grants;
};
