import type { CoreDeps } from '../deps.js';
import { relayTick, type RelayOptions, type RelayReport } from '../store/event-relay.js';
import { run } from '../use-cases/run.js';
import { loadCatalogue, syncCatalogue } from './catalogue.js';
import { deployTemplate } from './deploy-template.js';
import { recordOutcomes } from './record-outcomes.js';
import type { TemplateFile } from './template-file.js';
import { getTemplate, listTemplates } from './templates.js';

/** The relay (its own cursor over the event log) that ends deployments and counts their outcomes. */
export const OUTCOMES_RELAY = 'marketplace_outcomes';

/** The `marketplace` section of the service: the catalogue, deployments, and their outcomes. */
export const marketplaceFacade = (deps: CoreDeps) => ({
  list: run(listTemplates(deps)),
  get: run(getTemplate(deps)),
  deploy: run(deployTemplate(deps)),
  /**
   * Brings the store's catalogue to the given templates (default: the catalogue shipped in the
   * package, read and checked from its files). Call at start-up, after `init`; safe from many hosts.
   */
  sync: (templates: readonly TemplateFile[] = loadCatalogue()) => syncCatalogue(deps, templates),
  /** Reads new events (relay `marketplace_outcomes`) and ends the deployments they finish. */
  outcomesTick: (owner: string, options?: RelayOptions): Promise<RelayReport> =>
    relayTick(deps, OUTCOMES_RELAY, owner, async (events) => void (await recordOutcomes(deps, events)), options),
});
