import type { EventRecord, Meter } from '@ephemail/core';
import type { Producer } from 'kafkajs';
import { DEFAULT_TOPIC, toEventMessage } from './event-message.js';

export interface KafkaEventPublisherOptions {
  /** The topic every event goes to. Default `'ephemail.events'`. */
  readonly topic?: string;
  /** Where sends Kafka did not acknowledge are counted (`ephemail_kafka_publish_errors_total`). Default: counts nothing. */
  readonly meter?: Meter;
}

/** Writes logged events to Kafka. */
export interface KafkaEventPublisher {
  readonly topic: string;
  /**
   * Sends one message per event, in the given order, and resolves only once every partition
   * leader has the messages with all in-sync replicas (`acks: -1`). A rejection means some may
   * have been written and some not: the caller sends the whole batch again (at least once).
   * A standalone function, so it can be handed to the relay as is.
   */
  readonly publish: (events: readonly EventRecord[]) => Promise<void>;
}

/**
 * A publisher over a connected kafkajs producer the host owns (see `createKafkaProducer`).
 * Messages are keyed by identity id, so one identity's events keep their order on one partition.
 */
export const createKafkaEventPublisher = (producer: Producer, options: KafkaEventPublisherOptions = {}): KafkaEventPublisher => {
  const topic = options.topic ?? DEFAULT_TOPIC;
  const publish = async (events: readonly EventRecord[]): Promise<void> => {
    if (events.length === 0) return;
    // One send for the batch: kafkajs groups it into one request per broker, in order per partition.
    await producer.send({ topic, acks: -1, messages: events.map(toEventMessage) }).catch((error: unknown) => {
      options.meter?.count('ephemail_kafka_publish_errors_total');
      throw error;
    });
  };
  return { topic, publish };
};
