import { z } from 'zod';
import { EXPORT_FORMATS, EXPORT_TYPES } from './export-record.js';

// `type` and `format` are any string here, so that a value outside the allowed set answers the
// spec's `invalid_export_type` / `invalid_format` (checked by the use case), not `invalid_request`;
// the OpenAPI document still lists the allowed values.
const bound = z.string().min(1).max(40).describe('ISO 8601: a date (2026-03-01) or a date-time with a zone (2026-03-01T12:00:00Z).');

export const CreateExportBody = z.strictObject({
  type: z.string().max(50).meta({ enum: [...EXPORT_TYPES] }).describe('What to export: identities, events or extractions.'),
  format: z.string().max(20).meta({ enum: [...EXPORT_FORMATS] }).describe('The file format: json (an array) or csv.'),
  date_range: z
    .strictObject({ start: bound, end: bound })
    .optional()
    .describe('Both bounds inclusive (a date alone covers its whole day), at most 90 days. Default: the 90 days up to now.'),
});
export type CreateExportBody = z.infer<typeof CreateExportBody>;

const timestamp = z.string().describe('ISO 8601 in UTC with milliseconds.');

/** The export object as the API answers it (creation: the first six fields only). */
export const ExportResponse = z.strictObject({
  id: z.string().describe('The exp_ id.'),
  type: z.enum(EXPORT_TYPES),
  format: z.enum(EXPORT_FORMATS),
  status: z.enum(['pending', 'processing', 'ready', 'failed']),
  date_range: z.strictObject({ start: timestamp, end: timestamp }).describe('Both bounds inclusive.'),
  created_at: timestamp,
  progress_percent: z.number().int().min(0).max(99).optional().describe('While processing.'),
  download_url: z.string().optional().describe('When ready: the signed link on the export host; no API key needed.'),
  download_expires_at: timestamp.optional().describe('When ready: one hour after completion.'),
  download_available: z.boolean().optional().describe('When ready: false once the link has expired (the file is deleted soon after).'),
  row_count: z.number().int().min(0).optional(),
  file_size_bytes: z.number().int().min(0).optional(),
  completed_at: timestamp.optional(),
  error: z.string().optional().describe('When failed: why, without internals.'),
});
