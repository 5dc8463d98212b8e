import { pipeline } from 'node:stream/promises';
import type { Ephemail } from '@ephemail/core';
import type { Request, Response } from 'express';
import * as E from 'fp-ts/lib/Either.js';
import { sendError } from './envelope.js';
import { dependencyUnavailable, toHttpError } from './errors.js';

/** The download's path, as the API serves it (`{export_host}` must route it to a host). */
export const EXPORT_DOWNLOAD_PATH = '/v1/exports/:export_id/download';

const one = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `attachment; filename="exp_….csv"`: the name is the export id and format, nothing a caller chose. */
const attachment = (filename: string): string => `attachment; filename="${filename.replace(/[^A-Za-z0-9_.-]/g, '_')}"`;

/**
 * Serves an export's file to whoever holds its signed link: no credential, no tenant headers (the
 * link's signature over the export id and expiry is the authority). Outside the route table
 * because the answer is a stream. A tampered link answers 403 `invalid_download_signature`, an
 * expired one 410 `download_expired`, both with the usual envelope; the file is sent as an
 * attachment with `Cache-Control: no-store` (set for every /v1 answer) and its exact length.
 */
export const exportDownload = (service: Ephemail) => async (req: Request, res: Response): Promise<void> => {
  try {
    const outcome = await service.exports.download({
      exportId: one(req.params.export_id) ?? '',
      expires: one(req.query.expires),
      signature: one(req.query.signature),
    });
    if (E.isLeft(outcome)) return sendError(req, res, toHttpError(outcome.left));
    const file = outcome.right;
    res.statusCode = 200;
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Length', String(file.size));
    res.setHeader('Content-Disposition', attachment(file.filename));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.method === 'HEAD') {
      file.stream.destroy();
      res.end();
      return;
    }
    // A client that goes away, or a storage that fails mid-file, ends the response short: the
    // length already sent tells the client the file is incomplete.
    await pipeline(file.stream, res).catch(() => res.destroy());
  } catch {
    if (res.headersSent) res.destroy();
    else sendError(req, res, dependencyUnavailable);
  }
};

/** The download in the OpenAPI document (its handler is outside the route table). */
export const exportDownloadOperation = {
  get: {
    summary: "Download a ready export's file through its signed link (from GET /v1/exports/{export_id}); no API key.",
    tags: ['Exports'],
    security: [],
    parameters: [
      { name: 'export_id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'expires', in: 'query', required: true, description: 'Unix seconds; the link answers 410 download_expired from then on.', schema: { type: 'string' } },
      { name: 'signature', in: 'query', required: true, description: 'Hex HMAC-SHA256 of `<export id>.<expires>` under the host\'s signing secret.', schema: { type: 'string' } },
    ],
    responses: {
      '200': {
        description: 'The file, as an attachment: text/csv or application/json (a JSON array, one row per line).',
        content: { 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'array', items: { type: 'object' } } } },
      },
      default: { description: 'Error: 403 invalid_download_signature, 410 download_expired, 404 export_not_found.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  },
} as const;
