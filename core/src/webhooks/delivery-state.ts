/**
 * States of a delivery job: `pending` (due at `next_attempt_at`), `delivering` (claimed by a
 * worker until its lease ends), and the final `delivered` (a 2xx) or `failed` (attempts used
 * up, a 410, or the endpoint removed; replayable).
 */
export const DELIVERY_STATES = ['pending', 'delivering', 'delivered', 'failed'] as const;

export type DeliveryState = (typeof DELIVERY_STATES)[number];
