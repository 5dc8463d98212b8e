import type { Ids } from '../ports/ids.js';
import type { WebhookEventType } from './event-types.js';

/** A webhook endpoint as stored. The signing secrets are sealed (see secret-box.ts). */
export interface WebhookRecord {
  readonly id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly description: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly secret_sealed: string;
  readonly secret_preview: string;
  /** The secret a rotation replaced, still signing `X-Signature-Previous` until `previous_secret_until`. */
  readonly previous_secret_sealed: string | null;
  readonly previous_secret_until: string | null;
  readonly rotated_at: string | null;
}

/** An endpoint as the API shows it: never a secret, only its masked preview. */
export interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly description: string | null;
  readonly secret_issued: true;
  readonly secretPreview: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly rotated_at: string | null;
}

/** The answer of a creation: the endpoint with its secret, shown this once. */
export interface IssuedWebhook extends Webhook {
  readonly secret: string;
}

/** The answer of a rotation: the new secret, shown this once. */
export interface RotatedSecret {
  readonly id: string;
  readonly secret: string;
  readonly secretPreview: string;
  readonly rotated_at: string;
  /** Until when the replaced secret keeps verifying (`X-Signature-Previous`). */
  readonly previous_secret_expires_at: string;
}

export const SECRET_PREFIX = 'whsec_';

/** 40 alphanumerics: about 238 bits from a cryptographic source. */
export const newSigningSecret = (ids: Ids): string => `${SECRET_PREFIX}${ids.secret(40)}`;

/** Enough to recognise a secret, nothing to use: the prefix and the last four characters. */
export const previewOf = (secret: string): string => `${SECRET_PREFIX}••••${secret.slice(-4)}`;

/** The associated data a sealed secret is bound to: its endpoint. */
export const secretContext = (webhookId: string): string => `webhook:${webhookId}`;

export const toWebhook = (record: WebhookRecord): Webhook => ({
  id: record.id,
  url: record.url,
  events: record.events,
  description: record.description,
  secret_issued: true,
  secretPreview: record.secret_preview,
  created_at: record.created_at,
  updated_at: record.updated_at,
  rotated_at: record.rotated_at,
});
