import { isPlanName, PLAN_NAMES } from '@ephemail/core';
import { Command } from 'commander';
import type { CliIo } from './io.js';
import { withService } from './keys-command.js';

/**
 * `ephemail orgs set-plan|show`: the plan the operator assigns an organization — all there is to
 * its limits with PAYMENTS=off, and the floor beneath a paid subscription or a trial otherwise.
 */
export const orgsCommand = (io: CliIo, setExit: (code: number) => void): Command => {
  const orgs = new Command('orgs')
    .description("manage organizations' plans")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  orgs
    .command('set-plan')
    .description('assign an organization its plan (what it is entitled to without a paid subscription)')
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--plan <plan>', `the plan (${PLAN_NAMES.join(', ')})`)
    .option('--json', 'print one JSON object')
    .action(async (options: { org: string; plan: string; json?: boolean }) => {
      const plan = options.plan;
      if (!isPlanName(plan)) {
        io.stderr.write(`unknown plan ${plan}: one of ${PLAN_NAMES.join(', ')}\n`);
        return setExit(2);
      }
      const outcome = await withService(async (service) => ((await service.billing.assignPlan(options.org, plan)) ? service.billing.planInForce(options.org) : undefined));
      if (outcome === undefined) {
        io.stderr.write(`no organization ${options.org} (keys create --org makes one)\n`);
        return setExit(1);
      }
      const line = { org_id: options.org, assigned_plan: plan, plan_in_force: outcome };
      io.stdout.write(options.json ? `${JSON.stringify(line)}\n` : `${options.org}: assigned ${plan}; in force now ${outcome}\n`);
    });
  orgs
    .command('show')
    .description("an organization's plan in force (its assigned plan, a paid subscription, an active trial)")
    .requiredOption('--org <id>', 'organization id')
    .action(async (options: { org: string }) => {
      const plan = await withService((service) => service.billing.planInForce(options.org));
      io.stdout.write(`${options.org}: in force now ${plan}\n`);
    });
  return orgs;
};
