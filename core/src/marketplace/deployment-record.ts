import type { configView } from './template-record.js';

/** What a deployment came to: `active` until its identity gets an extraction or ends without one. */
export type DeploymentStatus = 'active' | 'succeeded' | 'failed';

/** A deployment as stored: the template it came from, its identity, and its outcome once known. */
export interface DeploymentRecord {
  readonly id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly template_id: string;
  readonly template_version: string;
  readonly identity_id: string;
  readonly identity_email: string;
  readonly identity_expires_at: string;
  readonly parameters: Readonly<Record<string, string | number | boolean>>;
  readonly extraction_config: ReturnType<typeof configView>;
  readonly estimated_duration_seconds: number;
  readonly status: DeploymentStatus;
  readonly created_at: string;
  readonly finished_at: string | null;
  /** Seconds from the deployment to its identity's first extraction (succeeded only). */
  readonly duration_seconds: number | null;
  /** True once the outcome is added to the template's counts (outcomes.ts). */
  readonly counted: boolean;
}

/** The spec's Deployment, as `POST …/deploy` answers it. */
export const deploymentViewOf = (d: DeploymentRecord, identityStatus: string) => ({
  deployment_id: d.id,
  template_id: d.template_id,
  identity: { id: d.identity_id, email: d.identity_email, status: identityStatus, expires_at: d.identity_expires_at },
  extraction_config: d.extraction_config,
  status: d.status,
  estimated_duration_seconds: d.estimated_duration_seconds,
  created_at: d.created_at,
});

export type Deployment = ReturnType<typeof deploymentViewOf>;
