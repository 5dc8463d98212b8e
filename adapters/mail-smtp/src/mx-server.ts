import type net from 'node:net';
import type tls from 'node:tls';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { SMTPConnection, type SMTPConnectionOptions } from 'smtp-server/lib/smtp-connection.js';

/**
 * A session whose greeting waits `greetingDelayMs` instead of the library's fixed 100 ms
 * (ADR 0005). While it waits, a client that talks gets the library's 421 "You talk too soon";
 * with no delay the greeting goes out before anything the client sent can be read.
 */
class MxConnection extends SMTPConnection {
  private readonly greetingDelayMs: number;

  constructor(server: SMTPServer, socket: net.Socket | tls.TLSSocket, options: SMTPConnectionOptions | null | undefined, greetingDelayMs: number) {
    super(server, socket, options);
    this.greetingDelayMs = greetingDelayMs;
  }

  // Same steps as the library's init, less its connection-count check (ours runs in
  // onConnect, with our own reply) and with our delay.
  override init(): void {
    this._setListeners(() => {
      if (this.greetingDelayMs === 0) return this.connectionReady();
      setTimeout(() => this.connectionReady(), this.greetingDelayMs).unref();
    });
  }
}

/** smtp-server with a configurable greeting delay; everything else is the library's. */
export class MxServer extends SMTPServer {
  private readonly greetingDelayMs: number;

  constructor(options: SMTPServerOptions, greetingDelayMs: number) {
    super(options);
    this.greetingDelayMs = greetingDelayMs;
  }

  override connect(socket: net.Socket | tls.TLSSocket, socketOptions?: SMTPConnectionOptions | null): void {
    const connection = new MxConnection(this, socket, socketOptions, this.greetingDelayMs);
    this.connections.add(connection);
    connection.on('error', (err: Error) => this._onError(err));
    connection.on('connect', (info: Parameters<SMTPServer['_onClientConnect']>[0]) => this._onClientConnect(info));
    connection.init();
  }

  /** Finds the live session with this id (for the session deadline). */
  connectionOf(sessionId: string): SMTPConnection | undefined {
    for (const connection of this.connections) if (connection.id === sessionId) return connection;
    return undefined;
  }
}
