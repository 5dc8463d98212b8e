/**
 * Consumer settings for the mock: a member that is gone is dropped after 3 s (a new member's
 * join waits that long for it), and an idle fetch returns within 200 ms, so `stop` is quick.
 */
export const QUICK_GROUP = { consumerConfig: { sessionTimeout: 3_000, heartbeatInterval: 300, maxWaitTimeInMs: 200 } } as const;
