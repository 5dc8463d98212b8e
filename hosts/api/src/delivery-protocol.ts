import type { DeliveryOutcome, EventRecord, InboundEnvelope, TallySnapshot } from '@ephemail/core';

/** What a delivery thread is started with (its `workerData`). */
export interface DeliverySetup {
  readonly databaseUrl: string;
  readonly inboxDomain: string;
  readonly maxMessageBytes: number;
  readonly maxMessagesPerIdentity: number;
  readonly mailAuth: boolean;
  readonly dnsServers: readonly string[] | undefined;
  /** Parse threads of each delivery thread, for messages of `INLINE_PARSE_BELOW_BYTES` or more; 0 for none. */
  readonly parseThreads: number;
  /** The parse time budget, in ms; the parser's default (1 s) when absent. Tests on a busy machine hand in a generous one. */
  readonly parseTimeBudgetMs?: number;
}

/**
 * A delivery thread parses messages smaller than this itself: for them, the hop to a parse
 * thread costs about what the parse does. Measured with 20 sessions over reused connections: at
 * 50 KiB a parse thread beside the delivery thread answered 17–29 % more messages; at 4 KiB the
 * hop cost 2–9 %.
 */
export const INLINE_PARSE_BELOW_BYTES = 16 * 1024;

/** From the host thread: a message to deliver (its bytes transferred), or the order to stop. */
export type DeliveryRequest =
  | { readonly kind: 'deliver'; readonly id: number; readonly raw: Uint8Array; readonly envelope: InboundEnvelope }
  | { readonly kind: 'close' };

/** One answer of a delivery thread; several go in one post (see {@link DeliveryReplies}). */
export type DeliveryReply =
  /** The thread has loaded its core and opened its store. */
  | { readonly kind: 'ready' }
  | { readonly kind: 'delivered'; readonly id: number; readonly outcomes: readonly DeliveryOutcome[] }
  /** The delivery threw (a store failure, a parse over budget): the sender gets a temporary failure. */
  | { readonly kind: 'failed'; readonly id: number; readonly message: string }
  /** An event the thread's core logged, for the host thread's in-process listeners. */
  | { readonly kind: 'event'; readonly event: EventRecord }
  /**
   * What the thread counted since its last post (its tally, taken), for the host's `/metrics`:
   * it goes with the answers of a post when there is news, else within a second on its own.
   */
  | { readonly kind: 'metrics'; readonly tally: TallySnapshot }
  /** A warning of the thread's store (a failed background step), for the host's log. */
  | { readonly kind: 'warning'; readonly message: string }
  /** The thread closed its store (with the error, if closing failed). */
  | { readonly kind: 'closed'; readonly error?: string };

/**
 * What a delivery thread posts: the answers it had ready at the end of a run of its microtasks,
 * in order. A commit settles every delivery of its batch at once, and each logs two or three
 * events; one post for all of them costs one wake-up of the host thread instead of dozens.
 */
export type DeliveryReplies = readonly DeliveryReply[];
