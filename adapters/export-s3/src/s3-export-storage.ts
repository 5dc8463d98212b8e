import { PassThrough, type Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ExportFile, ExportStorage, ExportUpload } from '@ephemail/core';

export interface S3ExportStorageOptions {
  /** The bucket export files go to; it must exist. */
  readonly bucket: string;
  /** Prepended to every key, e.g. `exports/` (default none). */
  readonly prefix?: string;
  /** Size of each part of a multipart upload, in bytes (S3's minimum and default: 5 MiB). */
  readonly partSizeBytes?: number;
  /** Parts uploaded at once (default 2): each holds `partSizeBytes` in memory. */
  readonly queueSize?: number;
}

const MIN_PART = 5 * 1024 * 1024;
const KEY = /^(?!\.)[A-Za-z0-9_.-]{1,200}$/;

const isMissing = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Export files as objects of one bucket. An upload streams through S3's multipart upload
 * (`@aws-sdk/lib-storage`), which makes nothing visible until it completes and then replaces the
 * object whole, which is the port's commit. The client is the host's (endpoint, region,
 * credentials, path style for S3-compatible stores).
 */
export const createS3ExportStorage = (client: S3Client, options: S3ExportStorageOptions): ExportStorage => {
  const prefix = options.prefix ?? '';
  const partSize = Math.max(MIN_PART, options.partSizeBytes ?? MIN_PART);
  const objectKey = (key: string): string => {
    if (!KEY.test(key)) throw new RangeError(`export-s3: refused key ${JSON.stringify(key)}`);
    return `${prefix}${key}`;
  };
  /**
   * Multipart uploads of this key that a crashed host left open. A store that cannot list them
   * (some S3-compatible servers answer 501) relies on the bucket's lifecycle rule instead (README).
   */
  const abortDangling = async (key: string): Promise<void> => {
    const open = await client.send(new ListMultipartUploadsCommand({ Bucket: options.bucket, Prefix: key })).catch((error: unknown) => {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 501) return { Uploads: [] };
      throw error;
    });
    for (const upload of open.Uploads ?? []) {
      if (upload.Key !== key || upload.UploadId === undefined) continue;
      await client.send(new AbortMultipartUploadCommand({ Bucket: options.bucket, Key: key, UploadId: upload.UploadId })).catch(() => undefined);
    }
  };
  return {
    async create(key: string): Promise<ExportUpload> {
      const Key = objectKey(key);
      const stream = new PassThrough();
      const upload = new Upload({ client, params: { Bucket: options.bucket, Key, Body: stream }, partSize, queueSize: options.queueSize ?? 2, leavePartsOnError: false });
      const done = upload.done();
      // Observed here so a failure before commit is not an unhandled rejection; commit reports it.
      done.catch(() => undefined);
      let aborted = false;
      return {
        stream,
        async commit(): Promise<number> {
          stream.end();
          await done;
          const head = await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key }));
          return head.ContentLength ?? 0;
        },
        async abort(): Promise<void> {
          if (aborted) return;
          aborted = true;
          stream.destroy();
          await upload.abort().catch(() => undefined);
          await done.catch(() => undefined);
        },
      };
    },
    async open(key: string): Promise<ExportFile | undefined> {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }));
        return { size: object.ContentLength ?? 0, stream: object.Body as Readable };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async remove(key: string): Promise<boolean> {
      const Key = objectKey(key);
      await abortDangling(Key);
      const present = await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key })).then(
        () => true,
        (error: unknown) => {
          if (isMissing(error)) return false;
          throw error;
        },
      );
      if (present) await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key }));
      return present;
    },
  };
};
