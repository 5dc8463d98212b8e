import type { Ephemail } from '@ephemail/core';
import { createEphemail, isPlanName, PLAN_NAMES } from '@ephemail/core';
import { Command } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig } from '../config.js';
import { openStore } from '../store-factory.js';
import type { CliIo } from './io.js';

const list = (value: string): string[] => value.split(',').map((part) => part.trim()).filter(Boolean);

/** Opens the store of `DATABASE_URL` (safe beside a running host), runs `work`, closes it. */
export const withService = async <T>(work: (service: Ephemail) => Promise<T>): Promise<T> => {
  const config = loadConfig();
  const service = createEphemail({ store: openStore(config.DATABASE_URL), inboxDomain: config.INBOX_DOMAIN });
  try {
    await service.init();
    return await work(service);
  } finally {
    await service.close();
  }
};

/** `ephemail keys create|list|revoke`, against the same DATABASE_URL as the host. */
export const keysCommand = (io: CliIo, setExit: (code: number) => void): Command => {
  // Subcommands inherit these settings when created from `keys` below: errors are returned as
  // exit codes, never by process.exit, and output goes to the given streams.
  const keys = new Command('keys')
    .description('manage API keys')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  keys
    .command('create')
    .description('create an API key (the key is shown only now)')
    .requiredOption('--org <id>', 'organization id (created when missing)')
    .requiredOption('--project <ids>', 'project id, or several separated by commas (created when missing)')
    .requiredOption('--scopes <scopes>', 'comma-separated scopes, e.g. identities:read,identities:write')
    .option('--plan <plan>', `plan of a new organization (${PLAN_NAMES.join(', ')})`, 'starter')
    .option('--name <name>', 'a name to recognise the key by', 'api key')
    .option('--json', 'print one JSON object')
    .action(async (options: { org: string; project: string; scopes: string; plan: string; name: string; json?: boolean }) => {
      if (!isPlanName(options.plan)) {
        io.stderr.write(`unknown plan ${options.plan}\n`);
        return setExit(2);
      }
      const input = { orgId: options.org, projectIds: list(options.project), scopes: list(options.scopes), plan: options.plan, name: options.name };
      const created = await withService((service) => service.auth.createApiKey(input));
      if (E.isLeft(created)) {
        const detail = created.left._tag === 'InvalidRequest' ? created.left.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : '';
        io.stderr.write(`could not create the key: ${created.left._tag} ${detail}\n`);
        return setExit(2);
      }
      const { key, record } = created.right;
      const projects = record.project_ids;
      if (options.json) {
        io.stdout.write(`${JSON.stringify({ key, id: record.id, org_id: record.org_id, project_id: projects[0], project_ids: projects, scopes: record.scopes })}\n`);
      } else {
        io.stdout.write(`API key ${record.id} for ${record.org_id}/${projects.join(',')} [${record.scopes.join(', ')}]\n${key}\n(shown once)\n`);
      }
    });
  keys
    .command('list')
    .description('list API keys (never their secrets)')
    .option('--org <id>', 'only keys of this organization')
    .option('--json', 'print one JSON object per line')
    .action(async (options: { org?: string; json?: boolean }) => {
      const found = await withService((service) => service.auth.listApiKeys(options.org));
      for (const key of found) {
        const state = key.revoked_at === null ? 'active' : `revoked ${key.revoked_at}`;
        io.stdout.write(options.json ? `${JSON.stringify(key)}\n` : `${key.id}\t${key.org_id}\t${key.project_ids.join(',')}\t${key.scopes.join(',')}\t${state}\n`);
      }
    });
  keys
    .command('revoke <key-id>')
    .description('revoke an API key and the access tokens issued from it')
    .action(async (keyId: string) => {
      const revoked = await withService((service) => service.auth.revokeApiKey(keyId));
      if (E.isLeft(revoked)) {
        io.stderr.write(`no API key ${keyId}\n`);
        return setExit(1);
      }
      io.stdout.write(`revoked ${keyId} at ${revoked.right.revoked_at}\n`);
    });
  return keys;
};
