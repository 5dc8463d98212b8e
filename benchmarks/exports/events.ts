/**
 * The benchmark's events: shaped as core logs `email.received` (data masked, identity named),
 * two to each 10-second step so pages meet ties, ids ascending with time (as core's time-ordered
 * ids are), all of one organization and project.
 */
import type { EventRecord } from '@ephemail/core';

export const ORG = 'org_bench_exports';
export const PROJECT = 'proj_bench_exports';
export const START = Date.parse('2026-01-01T00:00:00.000Z');
const STEP_MS = 10_000;

export const occurredAt = (i: number): string => new Date(START + Math.floor(i / 2) * STEP_MS).toISOString();

export const eventDoc = (i: number): EventRecord => {
  const identity = `ident_bench${(i >> 3).toString(36).padStart(12, '0')}`;
  const message = `msg_bench${i.toString(36).padStart(14, '0')}`;
  const at = occurredAt(i);
  return {
    id: `evt_bench${i.toString(36).padStart(14, '0')}`,
    type: 'email.received',
    identity_id: identity,
    seq: (i & 7) + 1,
    position: i + 1,
    org_id: ORG,
    project_id: PROJECT,
    occurred_at: at,
    data: {
      identity_id: identity,
      message_id: message,
      from: 'no-reply@app.example.com',
      subject: i % 5 === 0 ? 'Your sign-in code is 4•••2' : `Welcome, "user ${i}", to Example`,
      size: 2048 + (i % 997),
      received_at: at,
    },
  };
};
