import type { Ephemail, Meter } from '@ephemail/core';
import { createKafkaClient, createKafkaEventPublisher, createKafkaProducer, startKafkaRelay } from '@ephemail/events-kafka';
import type { Logger } from 'pino';
import type { HostConfig } from './config.js';

export interface KafkaRuntime {
  /** Resolves when a broker answers (for `/readyz`); rejects otherwise. */
  ready(): Promise<void>;
  /** Connects and starts publishing the event log (relay `kafka`, its own cursor). */
  start(ephemail: Ephemail, owner: string): Promise<void>;
  close(): Promise<void>;
}

const within = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref())]);

/** The Kafka side of a host, when `KAFKA_BROKERS` is set. */
export const createKafkaRuntime = (config: HostConfig, logger: Logger, meter?: Meter): KafkaRuntime | undefined => {
  if (config.KAFKA_BROKERS === undefined || config.KAFKA_BROKERS.length === 0) return undefined;
  const kafka = createKafkaClient({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID, logger: logger.child({ component: 'kafka' }) });
  const admin = kafka.admin();
  const producer = createKafkaProducer(kafka, { idempotent: config.KAFKA_IDEMPOTENT });
  let relay: { stop(): Promise<void> } | undefined;
  return {
    ready: async () => {
      await within(admin.connect().then(() => admin.describeCluster()), 3000);
    },
    start: async (ephemail, owner) => {
      await producer.connect();
      const publisher = createKafkaEventPublisher(producer, { topic: config.KAFKA_TOPIC, meter });
      relay = startKafkaRelay(ephemail, publisher, { owner, logger: logger.child({ component: 'kafka-relay' }) });
    },
    close: async () => {
      await relay?.stop();
      await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
    },
  };
};
