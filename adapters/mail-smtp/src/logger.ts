/**
 * What the SMTP adapter logs through. Structurally a subset of pino's `Logger`, so a pino
 * instance (or a child of one) can be passed as is. Entries carry envelope addresses, sizes
 * and ids; message bodies are never logged.
 */
export interface SmtpLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

const ignore = (): void => undefined;

/** The logger used when none is given: drops everything. */
export const silentLogger: SmtpLogger = { info: ignore, warn: ignore, error: ignore };
