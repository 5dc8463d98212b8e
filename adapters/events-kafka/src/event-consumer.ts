import type { Consumer, ConsumerConfig, EachMessagePayload, Kafka } from 'kafkajs';
import { DedupeWindow } from './dedupe-window.js';
import { DEFAULT_TOPIC, parseEventMessage, type KafkaEvent } from './event-message.js';
import { createKafkaClient, type KafkaClientOptions } from './kafka-client.js';
import { describeError, silentLogger, type KafkaLogger } from './logger.js';

/** Where a delivered event sat in Kafka. */
export interface EventDelivery {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

interface ConsumerBase {
  /** The consumer group: members share the partitions, and its committed offsets say where to resume. */
  readonly groupId: string;
  /** Default `'ephemail.events'`. */
  readonly topic?: string;
  /** Only these event types reach `handler`; others are committed and passed over. Default: all. */
  readonly types?: readonly string[];
  /** Called once per event (barring the at-least-once cases); a rejection makes it come again. */
  readonly handler: (event: KafkaEvent, delivery: EventDelivery) => Promise<void> | void;
  /** How many recently handled event ids are remembered to drop duplicates. Default 10000; 0 turns it off. */
  readonly dedupeWindow?: number;
  /** Where a group with no committed offset starts: the oldest retained message, or only new ones. Default `true`. */
  readonly fromBeginning?: boolean;
  readonly logger?: KafkaLogger;
  /** kafkajs consumer settings (session timeout, heartbeat, retry, ...). Default kafkajs's. */
  readonly consumerConfig?: Omit<ConsumerConfig, 'groupId'>;
}

export type EventConsumerOptions =
  | (ConsumerBase & { readonly kafka: Kafka; readonly brokers?: undefined })
  | (ConsumerBase & Pick<KafkaClientOptions, 'brokers' | 'clientId' | 'ssl' | 'sasl'> & { readonly kafka?: undefined });

/** A running consumer. */
export interface EventConsumer {
  /** Waits for the event in hand, leaves the group and disconnects. */
  stop(): Promise<void>;
}

/** The host's client, or one built from the connection options. */
const clientOf = (options: EventConsumerOptions): Kafka =>
  options.kafka !== undefined
    ? options.kafka
    : createKafkaClient({ brokers: options.brokers, clientId: options.clientId, ssl: options.ssl, sasl: options.sasl, logger: options.logger });

const nextOffset = (offset: string): string => (BigInt(offset) + 1n).toString();

/** What happens to one message: handled by the user, or committed without calling them (and why). */
const eachMessage = (consumer: Consumer, options: EventConsumerOptions, window: DedupeWindow) => {
  const logger = options.logger ?? silentLogger;
  const wanted = options.types === undefined ? undefined : new Set(options.types);
  return async ({ topic, partition, message }: EachMessagePayload): Promise<void> => {
    const where = { topic, partition, offset: message.offset };
    const parsed = parseEventMessage(message.value);
    if (!parsed.ok) {
      // A message that fails validation now will fail it on every delivery: holding its offset
      // back would stall the partition for good, so it is logged and passed over.
      logger.warn({ ...where, reason: parsed.reason }, 'kafka message is not an ephemail v1 event; skipped');
    } else if ((wanted === undefined || wanted.has(parsed.event.type)) && !window.seen(parsed.event.id)) {
      try {
        await options.handler(parsed.event, where);
      } catch (error) {
        logger.warn({ ...where, eventId: parsed.event.id, ...describeError(error) }, 'event handler failed; the event will be delivered again');
        throw error;
      }
      window.remember(parsed.event.id);
    }
    // Committed only now: a crash before this line re-delivers the message to the group.
    await consumer.commitOffsets([{ topic, partition, offset: nextOffset(message.offset) }]);
  };
};

/**
 * Consumes the ephemail event topic: each message is validated as a v1 event, filtered by
 * `types`, de-duplicated by event id within the window, handed to `handler`, and its offset
 * committed only after the handler resolved. At least once: a crash or a handler failure before
 * the commit re-delivers; a failing handler is retried (kafkajs backs off and restarts) and holds
 * back the rest of its partition. Order: per partition, so per identity.
 */
export const createEventConsumer = async (options: EventConsumerOptions): Promise<EventConsumer> => {
  const consumer = clientOf(options).consumer({ ...options.consumerConfig, groupId: options.groupId });
  const window = new DedupeWindow(options.dedupeWindow ?? 10_000);
  // kafkajs restarts after most failures by itself; one it gives up on would otherwise go unseen.
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) (options.logger ?? silentLogger).error({ groupId: options.groupId, ...describeError(payload.error) }, 'kafka consumer stopped after an error it does not retry');
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [options.topic ?? DEFAULT_TOPIC], fromBeginning: options.fromBeginning ?? true });
    await consumer.run({ autoCommit: false, eachMessage: eachMessage(consumer, options, window) });
  } catch (error) {
    await consumer.disconnect();
    throw error;
  }
  return { stop: () => consumer.disconnect() };
};
