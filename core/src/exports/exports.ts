import type { Readable } from 'node:stream';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DomainError } from '../domain/errors.js';
import { exportNotFound, exportQuotaExceeded, invalidExportType, invalidFormat } from '../domain/errors.js';
import { iso } from '../domain/time.js';
import { C } from '../store/collections.js';
import { slotsOf } from '../store/slots.js';
import { exportDateRange } from './date-range.js';
import { downloadUrl, verifyDownload, type PresentedLink } from './download-link.js';
import type { ExportDeps } from './export-deps.js';
import type { DateRange, ExportFormat, ExportRecord, ExportType, ExportView } from './export-record.js';
import { baseView, EXPORT_FORMATS, EXPORT_TYPES, toExportView } from './export-record.js';
import type { CreateExportBody } from './schemas.js';

/**
 * The organization's concurrent-export quota: one slot per pending or processing export, taken
 * by compare-and-set (rule 6). A slot whose export has finished (or was never written) is given
 * back when the quota looks full, so a host that stopped between the two writes heals itself.
 */
export const exportSlots = slotsOf('exports', C.exports, (thing) => thing.status === 'pending' || thing.status === 'processing');

/** An export of the caller's project; another tenant's id answers exactly like an unknown one. */
export const loadExport = async (deps: ExportDeps, principal: Pick<Principal, 'orgId' | 'projectId'>, id: string): Promise<E.Either<DomainError, ExportRecord>> => {
  const record = (await deps.store.get(C.exports, id)) as ExportRecord | undefined;
  if (record === undefined || record.org_id !== principal.orgId || record.project_id !== principal.projectId) return E.left(exportNotFound(id));
  return E.right(record);
};

const isType = (value: string): value is ExportType => (EXPORT_TYPES as readonly string[]).includes(value);
const isFormat = (value: string): value is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(value);

/** The request as an export's settings: the spec's codes for an unknown type or format, then the range. */
const settingsOf = (deps: ExportDeps, input: CreateExportBody): E.Either<DomainError, { type: ExportType; format: ExportFormat; range: DateRange }> => {
  if (!isType(input.type)) return E.left(invalidExportType(input.type, EXPORT_TYPES));
  if (!isFormat(input.format)) return E.left(invalidFormat(input.format, EXPORT_FORMATS));
  const { type, format } = input;
  return E.map((range: DateRange) => ({ type, format, range }))(exportDateRange(input.date_range, deps.clock.now()));
};

const newExport = (deps: ExportDeps, principal: Principal, settings: { type: ExportType; format: ExportFormat; range: DateRange }): ExportRecord => {
  const now = iso(deps.clock.now());
  return {
    id: deps.ids.next('exp'),
    org_id: principal.orgId,
    project_id: principal.projectId,
    type: settings.type,
    format: settings.format,
    status: 'pending',
    date_range: settings.range,
    created_at: now,
    updated_at: now,
    stage: 'run',
    due_at: now,
    lease_owner: null,
    attempts: 0,
    interruptions: 0,
    progress_percent: 0,
    row_count: null,
    file_size_bytes: null,
    file_key: null,
    completed_at: null,
    download_expires_at: null,
    file_removed_at: null,
    error: null,
  };
};

/** Takes one of the organization's export slots and stores the export, pending and due at once. */
const store = (deps: ExportDeps) => async (record: ExportRecord): Promise<E.Either<DomainError, ExportRecord>> => {
  if (!(await exportSlots.reserve(deps, record.org_id, record.id, deps.exports.maxConcurrent))) return E.left(exportQuotaExceeded(deps.exports.maxConcurrent));
  try {
    await deps.store.insert(C.exports, record);
  } catch (error) {
    await exportSlots.release(deps, record.org_id, record.id).catch(() => undefined);
    throw error;
  }
  deps.exports.notify();
  return E.right(record);
};

/**
 * Queues an export of the caller's project: `pending`, due at once, which an export worker
 * (this process's is woken at once) claims and writes.
 */
export const createExport =
  (deps: ExportDeps) =>
  (principal: Principal, input: CreateExportBody): TE.TaskEither<DomainError, ExportView> =>
    pipe(
      TE.fromEither(settingsOf(deps, input)),
      TE.map((settings) => newExport(deps, principal, settings)),
      TE.flatMap((record) => () => store(deps)(record)),
      TE.map(baseView),
    );

/** The signed link of a ready export, on the export host. */
export const linkOf = (deps: ExportDeps) => (record: ExportRecord): string =>
  downloadUrl(deps.exports.downloadBase(), deps.exports.signingKey, record.id, record.download_expires_at!);

/** One export of the caller's project, in its current status. */
export const getExport =
  (deps: ExportDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, ExportView> =>
    pipe(
      () => loadExport(deps, principal, id),
      TE.map((record) => toExportView(record, deps.clock.now(), linkOf(deps))),
    );

/** A ready export's file, as a download sends it. */
export interface ExportDownload {
  readonly stream: Readable;
  readonly size: number;
  readonly contentType: string;
  readonly filename: string;
}

const CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' };

/**
 * The file a signed link names, for anyone holding the link (no credential): the signature is
 * checked before anything is read. A valid link to an export that is not ready, or whose file
 * is gone, answers `ExportNotFound`.
 */
export const openDownload =
  (deps: ExportDeps) =>
  (link: PresentedLink): TE.TaskEither<DomainError, ExportDownload> =>
    pipe(
      TE.fromEither(verifyDownload(deps.exports.signingKey, link, deps.clock.now())),
      TE.flatMap((expires) => async () => {
        const record = (await deps.store.get(C.exports, link.exportId)) as ExportRecord | undefined;
        const current = record?.status === 'ready' && record.file_key !== null && Date.parse(record.download_expires_at!) === expires * 1000;
        const file = current ? await deps.exports.storage.open(record.file_key!) : undefined;
        if (file === undefined) return E.left(exportNotFound(link.exportId));
        return E.right({ stream: file.stream, size: file.size, contentType: CONTENT_TYPES[record!.format], filename: `${record!.id}.${record!.format}` });
      }),
    );
