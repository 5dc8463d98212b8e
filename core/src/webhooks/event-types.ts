/**
 * The event types an endpoint can subscribe to: exactly the specification's webhook table.
 * (`identity.activated` is a stored lifecycle event only, never delivered.)
 */
export const WEBHOOK_EVENT_TYPES = [
  'email.received',
  'extraction.completed',
  'identity.provisioned',
  'identity.extended',
  'identity.squashed',
  'identity.expired',
  'consumer.notification.sent',
  'consumer.notification.failed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (type: string): type is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
