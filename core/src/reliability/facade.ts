import type { CoreDeps } from '../deps.js';
import { relayTick, type RelayOptions, type RelayReport } from '../store/event-relay.js';
import { run } from '../use-cases/run.js';
import { basicUrlGuard } from '../webhooks/basic-url-guard.js';
import type { UrlGuard } from '../webhooks/ports.js';
import type { ReliabilityDeps, TriggerTransport } from './reliability-deps.js';
import { runJobsTick, type RunJobOptions } from './run-jobs.js';
import { recordRunMail } from './run-mail.js';
import { createRun, getRun, getRunSecret } from './runs.js';

/** The relay (its own cursor over the event log) that brings mail to waiting runs. */
export const RUN_MAIL_RELAY = 'reliability';

export const reliabilityDeps = (deps: CoreDeps, urlGuard: UrlGuard | undefined, notify: () => void): ReliabilityDeps => ({
  ...deps,
  reliability: { urlGuard: urlGuard ?? basicUrlGuard, notify },
});

/** The `reliability` section of the service: runs, and the two ticks a host runs for them. */
export const reliabilityFacade = (deps: CoreDeps, urlGuard: UrlGuard | undefined) => {
  const listeners = new Set<() => void>();
  const rdeps = reliabilityDeps(deps, urlGuard, () => listeners.forEach((listener) => listener()));
  return {
    passwordReset: run(createRun(rdeps, 'password_reset')),
    invite: run(createRun(rdeps, 'invite')),
    get: run(getRun(rdeps)),
    /** The secret a completed run found: redacted, or with `reveal: true` and `secrets:read` raw (`Forbidden` without the scope). */
    secret: run(getRunSecret(rdeps)),
    /** Triggers runs that are due, and times out those past their deadline; any number of workers. */
    jobsTick: (owner: string, transport: TriggerTransport, options?: RunJobOptions) => runJobsTick(rdeps, owner, transport, options),
    /** Reads new events (relay `reliability`) and records mail on the runs waiting for it. */
    mailTick: (owner: string, options?: RelayOptions): Promise<RelayReport> =>
      relayTick(rdeps, RUN_MAIL_RELAY, owner, async (events) => void (await recordRunMail(rdeps, events)), options),
    /** Called when a run is created in this process, so its worker triggers it at once. */
    onCreated: (listener: () => void): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
