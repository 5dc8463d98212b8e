import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * JSON-lines logger. Whatever a caller passes, fields that can hold credentials or secrets are
 * replaced before the line is written.
 */
export const createLogger = (level: string, destination?: NodeJS.WritableStream): Logger =>
  pino(
    {
      level,
      base: { service: 'ephemail' },
      redact: {
        paths: [
          'authorization',
          'cookie',
          'token',
          'secret',
          'key',
          'password',
          'access_token',
          'session_token',
          'value',
          '*.authorization',
          '*.Authorization',
          '*.cookie',
          '*.token',
          '*.secret',
          '*.key',
          '*.password',
          '*.access_token',
          '*.session_token',
          'headers.*',
        ],
        censor: '[redacted]',
      },
    },
    destination as DestinationStream | undefined,
  );
