import type { CoreDeps } from '../deps.js';
import { iso, isoPlus } from '../domain/time.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import { dueBy } from '../store/due-by.js';
import { keep, updateWithRetry, write } from '../store/compare-and-set.js';
import type { TriggerTransport } from './reliability-deps.js';
import type { RunRecord } from './run-record.js';
import { closed } from './run-record.js';

/** The trigger's whole request, DNS to status line (the webhook rule). */
export const TRIGGER_TIMEOUT_MS = 10_000;

export interface RunJobOptions {
  /** How long a claimed run stays this worker's before another may take it. Default 30 s. */
  readonly leaseMs?: number;
  /** Runs taken per tick. Default 100. */
  readonly batch?: number;
}

export interface RunJobReport {
  readonly triggered: number;
  readonly failed: number;
  readonly timedOut: number;
}

type Stored = RunRecord & StoredDocument;

const withoutVersion = ({ version: _v, ...rest }: Stored): RunRecord => rest;

/** Writes `change` over the run as it is now, unless it was closed meanwhile (mail, another worker). */
const settle = async (deps: CoreDeps, id: string, change: (current: RunRecord) => Partial<RunRecord> | undefined): Promise<void> => {
  await updateWithRetry<RunRecord, undefined>(deps.store, C.runs, id, (current) => {
    const patch = current.open ? change(withoutVersion(current)) : undefined;
    return patch === undefined ? keep(undefined) : write({ ...withoutVersion(current), ...patch }, undefined);
  });
};

const bodyOf = (run: RunRecord): { body: string; contentType: string } => {
  if (run.request === null || run.request.body_template === null) return { body: JSON.stringify({ email: run.email }), contentType: run.request?.content_type ?? 'application/json' };
  return { body: run.request.body_template.replaceAll('{{email}}', run.email), contentType: run.request.content_type };
};

/**
 * Sends the run's trigger. The claim that led here wrote `trigger_started_at`, so no worker sends
 * it again: a run is triggered at most once, even when a host dies mid-request.
 */
const trigger = async (deps: CoreDeps, run: RunRecord, transport: TriggerTransport): Promise<'triggered' | 'failed'> => {
  const { body, contentType } = bodyOf(run);
  const headers = { ...run.request?.headers, 'content-type': contentType, 'user-agent': 'ephemail-reliability/1' };
  const outcome = await transport.post(run.target_url, headers, body, { timeoutMs: TRIGGER_TIMEOUT_MS });
  const now = iso(deps.clock.now());
  const ok = 'status' in outcome && outcome.status >= 200 && outcome.status < 300;
  await settle(deps, run.id, (current) => {
    if (ok) {
      const deadline = isoPlus(new Date(current.trigger_started_at!), current.timeout_seconds * 1000);
      return { triggered_at: now, target_status: outcome.status, deadline_at: deadline, due_at: deadline, lease_owner: null, updated_at: now };
    }
    const reason = 'status' in outcome ? `the target answered ${outcome.status}` : `the target could not be reached: ${outcome.error}`;
    return closed('failed', now, { failure_reason: reason, target_status: 'status' in outcome ? outcome.status : null });
  });
  return ok ? 'triggered' : 'failed';
};

/** Claims a due run for this worker: compare-and-set, so of N workers one gets it. */
const claim = async (deps: CoreDeps, run: Stored, owner: string, leaseMs: number): Promise<RunRecord | undefined> => {
  const now = deps.clock.now();
  const leaseUntil = isoPlus(now, leaseMs);
  const triggering = run.trigger_started_at === null;
  const next: RunRecord = {
    ...withoutVersion(run),
    lease_owner: owner,
    due_at: leaseUntil,
    updated_at: iso(now),
    ...(triggering ? { trigger_started_at: iso(now) } : {}),
  };
  return (await deps.store.replace(C.runs, next, run.version)) ? next : undefined;
};

/** What a claimed run needs: its trigger, its timeout, or to be failed after a trigger cut short. */
const act = async (deps: CoreDeps, before: Stored, run: RunRecord, transport: TriggerTransport): Promise<keyof RunJobReport | undefined> => {
  const now = iso(deps.clock.now());
  if (before.trigger_started_at === null) return (await trigger(deps, run, transport)) === 'triggered' ? 'triggered' : 'failed';
  if (before.triggered_at === null) {
    // A worker claimed the trigger and stopped before recording its answer: the target may or
    // may not have been called, and calling it again could send a second mail.
    await settle(deps, run.id, () => closed('failed', now, { failure_reason: 'the host stopped while triggering; the run is not triggered twice' }));
    return 'failed';
  }
  if (run.deadline_at !== null && run.deadline_at <= now) {
    await settle(deps, run.id, (current) => (current.status === 'pending' ? closed('timeout', now, { failure_reason: `no mail within ${current.timeout_seconds} s` }) : undefined));
    return 'timedOut';
  }
  // Claimed before its deadline (a lease ran out): put it back to wait for it.
  await settle(deps, run.id, (current) => ({ due_at: current.deadline_at ?? now, lease_owner: null }));
  return undefined;
};

/**
 * One pass over the runs that are due: triggers new ones, times out those whose deadline passed,
 * and fails those whose trigger was cut short. Safe from any number of workers and processes.
 */
export const runJobsTick = async (deps: CoreDeps, owner: string, transport: TriggerTransport, options: RunJobOptions = {}): Promise<RunJobReport> => {
  const due = (await deps.store.find(C.runs, {
    where: { open: true },
    range: dueBy('due_at', deps.clock.now()),
    sort: { field: 'due_at', direction: 'asc' },
    limit: options.batch ?? 100,
  })) as Stored[];
  const report = { triggered: 0, failed: 0, timedOut: 0 };
  await Promise.all(
    due.map(async (run) => {
      const claimed = await claim(deps, run, owner, options.leaseMs ?? 30_000);
      if (claimed === undefined) return;
      const outcome = await act(deps, run, claimed, transport);
      if (outcome !== undefined) report[outcome] += 1;
    }),
  );
  return report;
};
