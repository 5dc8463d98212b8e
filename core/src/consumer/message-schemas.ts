import { z } from 'zod';
import { pageQuery } from '../schemas.js';

// The consumer's own reveal: like the agent API's `reveal`, but no scope is needed (the consumer
// owns the identity; see consumer-messages.ts).
const ownerReveal = {
  reveal: z.enum(['true', 'false']).optional().transform((value) => value === 'true').describe("Raw codes and links in the mail (the consumer's own); masked without it."),
};

export const ConsumerMessagesQuery = pageQuery(20, 100).extend(ownerReveal);
export type ConsumerMessagesQuery = z.infer<typeof ConsumerMessagesQuery>;

export const ConsumerMessageQuery = z.strictObject(ownerReveal);
export type ConsumerMessageQuery = z.infer<typeof ConsumerMessageQuery>;
