import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Ephemail } from '@ephemail/core';
import { hashSecret } from '@ephemail/core';
import { createInternalApp } from '@ephemail/http-express';
import type { HostConfig } from './config.js';
import { readPem } from './payments.js';

export interface InternalListener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The listener for the service's own backends (redirect-token redemption), apart from the public
 * port: HTTPS that requires a client certificate signed by `INTERNAL_TLS_CA` (a handshake without
 * one, or with one of another CA, fails before any HTTP), and then the service credential.
 * Answers `undefined` when `INTERNAL_PORT` is not set.
 */
export const startInternalListener = async (config: HostConfig, ephemail: Ephemail): Promise<InternalListener | undefined> => {
  if (config.INTERNAL_PORT === undefined) return undefined;
  const app = createInternalApp(ephemail, { serviceTokenHash: hashSecret(config.INTERNAL_SERVICE_TOKEN!) });
  const server: Server = createServer(
    {
      cert: readPem(config.INTERNAL_TLS_CERT!),
      key: readPem(config.INTERNAL_TLS_KEY!),
      ca: readPem(config.INTERNAL_TLS_CA!),
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    },
    app,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.INTERNAL_PORT, config.INTERNAL_HOST, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
