import type { CoreDeps } from '../deps.js';
import type { EventRecord } from '../domain/event.js';
import { iso } from '../domain/time.js';
import { redact } from '../extraction/redact.js';
import type { ExtractionRecord } from '../mail/extraction-record.js';
import type { MessageRecord } from '../mail/message-record.js';
import type { StoredDocument } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import type { RunRecord, RunResult } from './run-record.js';
import { closed } from './run-record.js';

type Stored = RunRecord & StoredDocument;

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The run's `result` for the mail that completed it: redacted, never the raw value. */
const resultOf = (run: RunRecord, message: MessageRecord, extraction: ExtractionRecord): RunResult => ({
  email_received_at: message.received_at,
  extraction_type: extraction.type,
  has_secret: true,
  redacted_value: redact(extraction),
  secret_retrieval_available: true,
  delivery_time_ms: Math.max(0, Date.parse(message.received_at) - Date.parse(run.trigger_started_at!)),
  confidence: round2(extraction.confidence),
});

/** Whether `event` is the first mail a run waits for: received after its trigger began, by its deadline. */
const awaits = (run: RunRecord, event: EventRecord): boolean =>
  run.open &&
  run.status === 'pending' &&
  run.trigger_started_at !== null &&
  event.occurred_at >= run.trigger_started_at &&
  (run.deadline_at === null || event.occurred_at <= run.deadline_at);

/**
 * Records a mail on the runs of its identity that wait for one (`waiting`, read before): `completed`
 * with the result when the mail carried a secret, `failed` when it did not. The message's
 * extraction is read from the store (it is written in the same step as the message), so the
 * outcome does not depend on which events a relay batch holds. Answers the runs it closed.
 */
const recordMail = async (deps: CoreDeps, event: EventRecord, open: readonly Stored[]): Promise<ReadonlySet<Stored>> => {
  const waiting = open.filter((run) => awaits(run, event));
  if (waiting.length === 0) return new Set();
  const message = (await deps.store.get(C.messages, String(event.data.message_id))) as MessageRecord | undefined;
  if (message === undefined) return new Set();
  const extraction = message.extraction_id === null ? undefined : ((await deps.store.get(C.extractions, message.extraction_id)) as ExtractionRecord | undefined);
  const recorded = new Set<Stored>();
  for (const run of waiting) {
    const now = iso(deps.clock.now());
    const base = { email_received_at: message.received_at, message_id: message.id };
    const patch =
      extraction === undefined
        ? closed('failed', now, { ...base, failure_reason: 'the mail carried no code or link the engine could extract' })
        : closed('completed', now, { ...base, extraction_id: extraction.id, result: resultOf(run, message, extraction) });
    const { version, ...rest } = run;
    // Lost to a concurrent change (a timeout, another relay pass): that one decided the run.
    if (await deps.store.replace(C.runs, { ...rest, ...patch }, version)) recorded.add(run);
  }
  return recorded;
};

/** Identities per read of their open runs: one indexed query answers a whole relay batch. */
const IDENTITIES_PER_READ = 200;

/** The open runs of these identities, by identity. */
const openRunsOf = async (deps: CoreDeps, identityIds: readonly string[]): Promise<Map<string, Stored[]>> => {
  const byIdentity = new Map<string, Stored[]>();
  for (let i = 0; i < identityIds.length; i += IDENTITIES_PER_READ) {
    const ids = identityIds.slice(i, i + IDENTITIES_PER_READ);
    const runs = (await deps.store.find(C.runs, { where: { identity_id: ids.length === 1 ? ids[0]! : { in: ids }, open: true } })) as Stored[];
    for (const run of runs) (byIdentity.get(run.identity_id) ?? byIdentity.set(run.identity_id, []).get(run.identity_id)!).push(run);
  }
  return byIdentity;
};

/**
 * The relay handler: each `email.received`, for the runs that wait for mail. The open runs of
 * the batch's identities are read at once (most mail has none: one read, not one per mail).
 * Identities are independent, so their mail is recorded concurrently; one identity's mail in
 * log order (its first mail after a trigger is the one that counts).
 */
export const recordRunMail = async (deps: CoreDeps, events: readonly EventRecord[]): Promise<number> => {
  const byIdentity = new Map<string, EventRecord[]>();
  for (const event of events) if (event.type === 'email.received') (byIdentity.get(event.identity_id) ?? byIdentity.set(event.identity_id, []).get(event.identity_id)!).push(event);
  if (byIdentity.size === 0) return 0;
  const open = await openRunsOf(deps, [...byIdentity.keys()]);
  const counts = await Promise.all(
    [...open.entries()].map(async ([identityId, runs]) => {
      let left = runs;
      let recorded = 0;
      for (const event of byIdentity.get(identityId) ?? []) {
        if (left.length === 0) break;
        const closedNow = await recordMail(deps, event, left);
        recorded += closedNow.size;
        left = left.filter((run) => !closedNow.has(run));
      }
      return recorded;
    }),
  );
  return counts.reduce((sum, n) => sum + n, 0);
};
