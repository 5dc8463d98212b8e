import { ImapFlow } from 'imapflow';
import { describeError, imapFlowOptions, type MailboxConfig } from './mailbox-config.js';
import type { PollerLogger } from './poller-options.js';

/**
 * Connects a fresh client. Its `error` events are logged, never rethrown: an EventEmitter
 * `error` without a listener would crash the host process. `signal` aborts a pending connect.
 */
export const connectClient = async (mailbox: MailboxConfig, key: string, logger: PollerLogger, signal?: AbortSignal): Promise<ImapFlow> => {
  const client = new ImapFlow(imapFlowOptions(mailbox));
  client.on('error', (error: unknown) => logger.warn({ mailbox: key, ...describeError(error, mailbox) }, 'imap connection error'));
  const abort = (): void => client.close();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    if (signal?.aborted === true) throw new Error('IMAP poller stopped before connecting');
    await client.connect();
    return client;
  } catch (error) {
    client.close();
    throw error;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
};

/**
 * Logs out (which also ends a running IDLE) so the server sees a clean goodbye; closes the socket
 * when the connection is already gone or the server does not answer within `timeoutMs`.
 */
export const closeClient = async (client: ImapFlow, timeoutMs: number): Promise<void> => {
  if (!client.usable) {
    client.close();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([client.logout().then(() => 'done' as const), timeout]);
    if (outcome === 'timeout') client.close();
  } catch {
    client.close();
  } finally {
    clearTimeout(timer);
  }
};

/** A wait that something may cut short: new mail announced, the connection lost, or a stop. */
export interface Wakeup {
  /** Something happened since the last `clear()`. */
  readonly pending: boolean;
  notify(): void;
  clear(): void;
  /** Resolves after `ms`, or at once when (or as soon as) something is pending. */
  wait(ms: number): Promise<void>;
}

/** Creates a {@link Wakeup}. Events between `clear()` and `wait()` are kept, so none is missed. */
export const createWakeup = (): Wakeup => {
  let pending = false;
  let release: (() => void) | undefined;
  return {
    get pending() {
      return pending;
    },
    notify: () => {
      pending = true;
      release?.();
    },
    clear: () => {
      pending = false;
    },
    wait: (ms) =>
      new Promise<void>((resolve) => {
        if (pending) return resolve();
        const done = (): void => {
          clearTimeout(timer);
          release = undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        release = done;
      }),
  };
};

/** Resolves after `ms`, or at once when `signal` aborts. Never rejects. */
export const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
