import { randomBytes } from 'node:crypto';
import type { CoreDeps } from '../deps.js';
import { HOUR_MS } from '../domain/time.js';
import { createMemoryExportStorage } from '../memory/memory-export-storage.js';
import type { CsvEncoder, ExportStorage } from './ports.js';

/** How the service runs exports; every field has a default (see {@link exportDeps}). */
export interface ExportOptions {
  /** Where files go. Default: in this process's memory (embedding and tests; nothing survives a restart). */
  readonly storage?: ExportStorage;
  /** The CSV encoder (`@ephemail/export-csv`). Without one, CSV exports fail with a reason saying so. */
  readonly csv?: CsvEncoder;
  /** The key of download links' signatures; every host of a deployment needs the same. Default: random per process. */
  readonly signingKey?: Uint8Array | string;
  /** The export host's base URL (`{export_host}`) that links start with. Default '' (links relative to the API). */
  readonly downloadBase?: string | (() => string);
  /** Exports an organization may have pending or processing at once. Default 3. */
  readonly maxConcurrent?: number;
  /** How long a download link is valid after the export is ready. Default 1 h (the spec's). */
  readonly downloadTtlMs?: number;
  /** How long a claimed export stays its worker's without a renewal. Default 60 s. */
  readonly leaseMs?: number;
  /** Documents read per store query. Default 250 (a page alive across a slow write is promoted; see run-export.ts). */
  readonly pageSize?: number;
}

export interface ExportSettings {
  readonly storage: ExportStorage;
  readonly csv: CsvEncoder | undefined;
  readonly signingKey: Uint8Array | string;
  readonly downloadBase: () => string;
  readonly maxConcurrent: number;
  readonly downloadTtlMs: number;
  readonly leaseMs: number;
  readonly pageSize: number;
  /** Tells this process's export worker that an export is waiting. */
  readonly notify: () => void;
}

/** What the export use cases need beyond the core's deps. */
export interface ExportDeps extends CoreDeps {
  readonly exports: ExportSettings;
}

const positive = (name: string, value: number): number => {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`exports: ${name} must be a positive integer, got ${value}`);
  return value;
};

export const exportDeps = (deps: CoreDeps, options: ExportOptions, notify: () => void): ExportDeps => {
  const base = options.downloadBase ?? '';
  return {
    ...deps,
    exports: {
      storage: options.storage ?? createMemoryExportStorage(),
      csv: options.csv,
      signingKey: options.signingKey ?? randomBytes(32),
      downloadBase: typeof base === 'string' ? () => base : base,
      maxConcurrent: positive('maxConcurrent', options.maxConcurrent ?? 3),
      downloadTtlMs: positive('downloadTtlMs', options.downloadTtlMs ?? HOUR_MS),
      leaseMs: positive('leaseMs', options.leaseMs ?? 60_000),
      pageSize: positive('pageSize', options.pageSize ?? 250),
      notify,
    },
  };
};
