export { DedupeWindow } from './dedupe-window.js';
export {
  DEFAULT_TOPIC,
  EVENT_HEADERS,
  EVENT_SCHEMA_V1,
  EventMessageV1,
  parseEventMessage,
  toEventMessage,
  type EventMessage,
  type KafkaEvent,
  type ParsedEventMessage,
} from './event-message.js';
export { createEventConsumer, type EventConsumer, type EventConsumerOptions, type EventDelivery } from './event-consumer.js';
export { createKafkaClient, createKafkaProducer, type KafkaClientOptions, type KafkaProducerOptions } from './kafka-client.js';
export { createKafkaEventPublisher, type KafkaEventPublisher, type KafkaEventPublisherOptions } from './kafka-event-publisher.js';
export { startKafkaRelay, type EventRelaySource, type KafkaRelay, type KafkaRelayOptions } from './kafka-relay.js';
export { silentLogger, type KafkaLogger } from './logger.js';
