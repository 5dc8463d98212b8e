import type { ConnectionOptions } from 'node:tls';
import { Kafka, logLevel, Partitioners, type Mechanism, type Producer, type RetryOptions, type SASLOptions, type logCreator } from 'kafkajs';
import { silentLogger, type KafkaLogger } from './logger.js';

/** How to reach the cluster. The host builds it from its own configuration. */
export interface KafkaClientOptions {
  /** `host:port` of one or more brokers (an array, or one comma-separated string). */
  readonly brokers: string | readonly string[];
  /** Names this client in the brokers' logs and quotas. Default `'ephemail'`. */
  readonly clientId?: string;
  /** TLS: `true` for the system's trust store, or Node's TLS options. Default off. */
  readonly ssl?: boolean | ConnectionOptions;
  /** SASL credentials (plain, scram-sha-256/512, aws, oauthbearer). Default none. */
  readonly sasl?: SASLOptions | Mechanism;
  /** Where kafkajs's own log lines go. Default: dropped. */
  readonly logger?: KafkaLogger;
  /** The least severe kafkajs line passed to `logger`. Default `'warn'`. */
  readonly logLevel?: 'error' | 'warn' | 'info' | 'debug';
  /** Time to open a connection to a broker, in ms. Default 1000 (kafkajs's). */
  readonly connectionTimeoutMs?: number;
  /** Time a broker has to answer a request, in ms. Default 30000 (kafkajs's). */
  readonly requestTimeoutMs?: number;
  /** kafkajs's retry policy for every request of this client. Default kafkajs's (5 retries, 300 ms doubling). */
  readonly retry?: RetryOptions;
}

const LEVELS = { error: logLevel.ERROR, warn: logLevel.WARN, info: logLevel.INFO, debug: logLevel.DEBUG } as const;

/** Passes kafkajs's log lines to the host's logger instead of kafkajs's own console output. */
const bridge =
  (logger: KafkaLogger): logCreator =>
  () =>
  ({ namespace, level, log }) => {
    const { message, timestamp: _timestamp, ...extra } = log;
    // Error objects serialise to `{}` in JSON loggers; their message is what an operator needs.
    const fields = { kafkajs: namespace, ...extra, ...(extra.error instanceof Error ? { error: extra.error.message } : {}) };
    if (level === logLevel.ERROR) logger.error(fields, message);
    else if (level === logLevel.WARN) logger.warn(fields, message);
    else logger.info(fields, message);
  };

/** A kafkajs client for the given brokers; nothing connects until a producer or consumer does. */
export const createKafkaClient = (options: KafkaClientOptions): Kafka => {
  const brokers = (typeof options.brokers === 'string' ? options.brokers.split(',') : [...options.brokers])
    .map((broker) => broker.trim())
    .filter((broker) => broker.length > 0);
  if (brokers.length === 0) throw new Error('createKafkaClient: at least one broker is required');
  return new Kafka({
    brokers,
    clientId: options.clientId ?? 'ephemail',
    ssl: options.ssl,
    sasl: options.sasl,
    connectionTimeout: options.connectionTimeoutMs,
    requestTimeout: options.requestTimeoutMs,
    retry: options.retry,
    logLevel: LEVELS[options.logLevel ?? 'warn'],
    logCreator: bridge(options.logger ?? silentLogger),
  });
};

/** How the relay's producer behaves. */
export interface KafkaProducerOptions {
  /**
   * Broker-side de-duplication of the producer's own retries (no duplicate and no reordering
   * from a retried request). Default `true`; turn it off only for brokers that cannot run it.
   */
  readonly idempotent?: boolean;
  /**
   * Retries of one send, over the client's policy. Default: unbounded for the idempotent
   * producer (kafkajs's choice: giving up mid-sequence can leave the broker expecting a sequence
   * number the producer has dropped), the client's otherwise; after the last one the relay backs
   * off and sends the batch again.
   */
  readonly retry?: RetryOptions;
  /** Lets the first send create a missing topic with the broker's defaults. Default `true`. */
  readonly allowAutoTopicCreation?: boolean;
}

/**
 * The producer for {@link createKafkaEventPublisher}: one request in flight, so a retried
 * request can never overtake the next one and per-key order holds; the Java client's murmur2
 * partitioner, so other clients place a key on the same partition. Connect it before use.
 */
export const createKafkaProducer = (kafka: Kafka, options: KafkaProducerOptions = {}): Producer => {
  const idempotent = options.idempotent ?? true;
  return kafka.producer({
    idempotent,
    maxInFlightRequests: 1,
    retry: options.retry,
    allowAutoTopicCreation: options.allowAutoTopicCreation ?? true,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
};
