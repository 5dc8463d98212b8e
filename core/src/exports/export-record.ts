export const EXPORT_TYPES = ['identities', 'events', 'extractions'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export const EXPORT_FORMATS = ['json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type ExportStatus = 'pending' | 'processing' | 'ready' | 'failed';

/**
 * What the store's job machinery does with an export next: `run` it (pending, or processing
 * under a lease), `purge` its files (ready: once the download expires; failed: at once), or
 * nothing (`done`). With `due_at`, it is what the index `stage, due_at` finds.
 */
export type ExportStage = 'run' | 'purge' | 'done';

export interface DateRange {
  readonly start: string;
  readonly end: string;
}

/** An export as stored: the spec's object, and the leased job that makes its file. */
export interface ExportRecord {
  readonly id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly type: ExportType;
  readonly format: ExportFormat;
  readonly status: ExportStatus;
  readonly date_range: DateRange;
  readonly created_at: string;
  readonly updated_at: string;
  readonly stage: ExportStage;
  /** When the stage next has something to do ('' once done). While processing: the lease's end. */
  readonly due_at: string;
  readonly lease_owner: string | null;
  /** Claims so far; the n-th claim writes the file `<id>-<n>.<format>`, so no two attempts share one. */
  readonly attempts: number;
  /** Claims that found the export processing under a lease that ran out: a host stopped mid-export. */
  readonly interruptions: number;
  readonly progress_percent: number;
  readonly row_count: number | null;
  readonly file_size_bytes: number | null;
  readonly file_key: string | null;
  readonly completed_at: string | null;
  readonly download_expires_at: string | null;
  /** Set when the purge deleted the file (the download expired); the record stays. */
  readonly file_removed_at: string | null;
  readonly error: string | null;
}

/** The storage key of an export's file written by its `attempt`-th claim. */
export const fileKeyOf = (id: string, attempt: number, format: ExportFormat): string => `${id}-${attempt}.${format}`;

/** Every key an export's attempts may have written, for purging them all. */
export const fileKeysOf = (record: Pick<ExportRecord, 'id' | 'attempts' | 'format'>): string[] =>
  Array.from({ length: record.attempts }, (_, i) => fileKeyOf(record.id, i + 1, record.format));

/** The export as the API shows it: the fields of its current status, nothing of the job. */
export interface ExportView {
  readonly id: string;
  readonly type: ExportType;
  readonly format: ExportFormat;
  readonly status: ExportStatus;
  readonly date_range: DateRange;
  readonly created_at: string;
  readonly progress_percent?: number;
  readonly download_url?: string;
  readonly download_expires_at?: string;
  /** Beyond the spec: false once the download has expired (the file is deleted soon after). */
  readonly download_available?: boolean;
  readonly row_count?: number;
  readonly file_size_bytes?: number;
  readonly completed_at?: string;
  readonly error?: string;
}

/** The fields every status shows: the creation answer. */
export const baseView = (r: ExportRecord): ExportView => ({
  id: r.id,
  type: r.type,
  format: r.format,
  status: r.status,
  date_range: r.date_range,
  created_at: r.created_at,
});

/**
 * The view at `now`; `downloadUrl` signs the record's link (only a ready export has one). A
 * ready export keeps its fields after the download expires, with `download_available: false`.
 */
export const toExportView = (r: ExportRecord, now: Date, downloadUrl: (r: ExportRecord) => string): ExportView => {
  const base = baseView(r);
  switch (r.status) {
    case 'pending':
      return base;
    case 'processing':
      return { ...base, progress_percent: r.progress_percent };
    case 'failed':
      return { ...base, error: r.error ?? 'The export failed.' };
    case 'ready':
      return {
        ...base,
        download_url: downloadUrl(r),
        download_expires_at: r.download_expires_at!,
        download_available: r.file_removed_at === null && Date.parse(r.download_expires_at!) > now.getTime(),
        row_count: r.row_count!,
        file_size_bytes: r.file_size_bytes!,
        completed_at: r.completed_at!,
      };
  }
};
