import { EVENT_TYPES } from '@ephemail/core';
import { createEventConsumer, type EventConsumer, type KafkaEvent } from '@ephemail/events-kafka';

/** The lifecycle events of identities: provisioned, activated, extended, squashed, expired. */
export const IDENTITY_EVENTS = EVENT_TYPES.filter((type) => type.startsWith('identity.'));

/** One line per event, for people reading a terminal. */
export const describe = (event: KafkaEvent): string => {
  const expires = typeof event.data.expires_at === 'string' ? ` until ${event.data.expires_at}` : '';
  return `${event.occurred_at} ${event.type} ${event.identity_id}${expires} (${event.org_id}/${event.project_id}, #${event.position})`;
};

export interface PrintOptions {
  /** `host:port` of the brokers, comma-separated. */
  readonly brokers: string;
  /** Members of one group share the partitions; a new group starts at the oldest message kept. */
  readonly groupId: string;
  readonly topic?: string;
  readonly print?: (line: string) => void;
}

/**
 * Prints identity events from the ephemail topic. Each event is validated, each id handled once
 * within the de-duplication window, and its offset committed after `print` returned: a crash
 * before that prints the event again on restart (at least once), never skips it.
 */
export const printIdentityEvents = (options: PrintOptions): Promise<EventConsumer> => {
  const print = options.print ?? console.log;
  return createEventConsumer({
    brokers: options.brokers,
    groupId: options.groupId,
    topic: options.topic,
    types: IDENTITY_EVENTS,
    handler: (event) => print(describe(event)),
  });
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const [brokers = 'localhost:9092', groupId = 'ephemail-example'] = process.argv.slice(2);
  const consumer = await printIdentityEvents({ brokers, groupId });
  const stop = (): void => void consumer.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
