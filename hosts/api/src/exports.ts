import { createHash, randomBytes } from 'node:crypto';
import type { ExportOptions } from '@ephemail/core';
import { createCsvStringifyEncoder } from '@ephemail/export-csv';
import { createFsExportStorage } from '@ephemail/export-fs';
import { createS3ExportStorage } from '@ephemail/export-s3';
import { S3Client } from '@aws-sdk/client-s3';
import type { HostConfig } from './config.js';

/**
 * The key of download links' signatures: `EXPORT_SIGNING_SECRET`, else derived from the data key
 * (so every host of a deployment agrees, and a development install keeps it across restarts in
 * its key file), else random for this process (links made before a restart stop working).
 */
export const exportSigningKey = (config: HostConfig, dataKey: Buffer | undefined): Buffer => {
  if (config.EXPORT_SIGNING_SECRET !== undefined) return createHash('sha256').update(config.EXPORT_SIGNING_SECRET).digest();
  if (dataKey !== undefined) return createHash('sha256').update('ephemail export download links\n').update(dataKey).digest();
  return randomBytes(32);
};

/** The bucket when `EXPORT_S3_BUCKET` is set (the client is this host's), else the folder `EXPORT_DIR`. */
const exportStorage = (config: HostConfig): ExportOptions['storage'] => {
  if (config.EXPORT_S3_BUCKET === undefined) return createFsExportStorage(config.EXPORT_DIR);
  const credentials =
    config.EXPORT_S3_ACCESS_KEY_ID !== undefined && config.EXPORT_S3_SECRET_ACCESS_KEY !== undefined
      ? { credentials: { accessKeyId: config.EXPORT_S3_ACCESS_KEY_ID, secretAccessKey: config.EXPORT_S3_SECRET_ACCESS_KEY } }
      : {};
  const client = new S3Client({
    region: config.EXPORT_S3_REGION,
    forcePathStyle: config.EXPORT_S3_FORCE_PATH_STYLE,
    ...(config.EXPORT_S3_ENDPOINT === undefined ? {} : { endpoint: config.EXPORT_S3_ENDPOINT }),
    ...credentials,
  });
  return createS3ExportStorage(client, { bucket: config.EXPORT_S3_BUCKET, prefix: config.EXPORT_S3_PREFIX });
};

/**
 * Exports of this host: files in `EXPORT_DIR`, CSV by csv-stringify, links on `EXPORT_HOST` (or
 * the host's public base as it listens).
 */
export const hostExportOptions = (config: HostConfig, dataKey: Buffer | undefined, publicUrl: () => string): ExportOptions => ({
  storage: exportStorage(config),
  csv: createCsvStringifyEncoder(),
  signingKey: exportSigningKey(config, dataKey),
  downloadBase: () => config.EXPORT_HOST ?? publicUrl(),
  maxConcurrent: config.EXPORT_MAX_CONCURRENT,
  downloadTtlMs: config.EXPORT_DOWNLOAD_TTL_SECONDS * 1000,
});
