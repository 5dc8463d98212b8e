import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

interface Taken {
  readonly latencies: number[];
  readonly invalid: number;
  /** Deliveries of a (path, event id) pair received before. */
  readonly duplicates: number;
  readonly lastAt: number;
}

/** Starts receiver.ts in a child process (stopped by its own handle) and talks to it over IPC. */
export const startReceiver = async () => {
  const child: ChildProcess = fork(fileURLToPath(new URL('./receiver.ts', import.meta.url)), [], {
    execArgv: ['--import=tsx', '--conditions=@ephemail/source'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(kind: string, reply: string, extra: Record<string, unknown> = {}): Promise<T> =>
    new Promise((resolve) => {
      const listener = (message: { kind: string }) => {
        if (message.kind !== reply) return;
        child.off('message', listener);
        resolve(message as T);
      };
      child.on('message', listener);
      if (kind !== '') child.send({ kind, ...extra });
    });
  const { port } = await ask<{ port: number }>('', 'ready');
  return {
    port,
    setSecrets: (secrets: string[]) => ask('secrets', 'ok', { secrets }),
    count: async () => (await ask<{ count: number }>('count', 'count')).count,
    take: () => ask<Taken>('take', 'taken'),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send({ kind: 'stop' });
      }),
  };
};

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
