/**
 * Identity-shaped documents for the store micro-benchmark, built the way core stores a newly
 * provisioned identity (its provisioned event still in the embedded outbox), and a seeded random
 * sequence so every store is asked exactly the same things.
 */
import type { EventRecord, FindQuery, IdentityRecord, IdentityStatus } from '@ephemail/core';

export const ORG = 'org_bench';
export const PROJECTS = ['proj_a', 'proj_b', 'proj_c', 'proj_d'] as const;
/** Weighted the way a busy project looks: most identities live, some squashed or expired. */
const STATUSES: readonly IdentityStatus[] = ['active', 'active', 'provisioned', 'extended', 'squashed', 'expired'];
const START = Date.parse('2026-01-01T00:00:00.000Z');
const HOUR_MS = 3_600_000;

/** A small deterministic generator (mulberry32): the same seed gives the same operations. */
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

const idOf = (i: number): string => `ident_bench${i.toString(36).padStart(13, '0')}`;

/** The i-th identity: one created every second, round-robin over the projects. */
export const identityDoc = (i: number): IdentityRecord => {
  const id = idOf(i);
  const createdAt = new Date(START + i * 1000).toISOString();
  const project = PROJECTS[i % PROJECTS.length]!;
  const provisioned: EventRecord = {
    id: `evt_bench${i.toString(36).padStart(13, '0')}`, type: 'identity.provisioned', identity_id: id, seq: 1,
    org_id: ORG, project_id: project, occurred_at: createdAt, data: { email: `u${i}@inbox.bench.test`, label: `signup ${i}` },
  };
  return {
    id, org_id: ORG, project_id: project, email: `u${i}@inbox.bench.test`, label: `signup ${i}`,
    status: STATUSES[i % STATUSES.length]!, created_at: createdAt,
    expires_at: new Date(START + i * 1000 + 24 * HOUR_MS).toISOString(), ttl_hours: 24,
    metadata: { source: 'benchmark', run: i, flow: 'signup' }, parent_id: null, root_id: id, depth: 0,
    squashed_at: null, activated_at: null, pending_events: [provisioned], event_count: 1, has_pending: true,
    message_count: 0, latest_extraction_id: null, recent_message_ids: [],
  };
};

/** What an activation writes: outbox flushed, status moved on, one more event counted. */
export const activated = (doc: IdentityRecord, at: number): IdentityRecord => ({
  ...doc, status: 'active', activated_at: new Date(START + at).toISOString(),
  pending_events: [], has_pending: false, event_count: doc.event_count + 1,
});

/** The API's list: one project's live identities of a status, newest first, created after a cutoff. */
export const listQuery = (project: string, cutoffIndex: number): FindQuery => ({
  where: { org_id: ORG, project_id: project, status: 'active' },
  range: { field: 'created_at', gte: new Date(START + cutoffIndex * 1000).toISOString() },
  sort: { field: 'created_at', direction: 'desc' },
  limit: 50,
});

/** A quota-style count: one project's identities created after a cutoff. */
export const countQuery = (project: string, cutoffIndex: number): Pick<FindQuery, 'where' | 'range'> => ({
  where: { org_id: ORG, project_id: project },
  range: { field: 'created_at', gte: new Date(START + cutoffIndex * 1000).toISOString() },
});
