/** The logging surface of this package; pino's logger satisfies it. Fields never hold secrets. */
export interface KafkaLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** The logger used when none is given: drops everything. */
export const silentLogger: KafkaLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Loggable fields of a thrown value: its class name and message, never the whole object. */
export const describeError = (error: unknown): Record<string, unknown> =>
  error instanceof Error ? { error: error.message, errorName: error.name } : { error: String(error) };
