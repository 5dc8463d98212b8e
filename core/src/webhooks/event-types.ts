import { WEBHOOK_EVENT_TYPES } from '../domain/event.js';

export { WEBHOOK_EVENT_TYPES };

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (type: string): type is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
