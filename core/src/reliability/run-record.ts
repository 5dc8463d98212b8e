export type FlowType = 'password_reset' | 'invite';
export type RunStatus = 'pending' | 'email_received' | 'completed' | 'failed' | 'timeout';

/** What a run's trigger sends beyond the default `{"email": …}` JSON POST. */
export interface RunRequest {
  /** Extra request headers (names lower-cased); their values are never shown back. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, with every `{{email}}` replaced by the identity's address; default the JSON above. */
  readonly body_template: string | null;
  readonly content_type: string;
}

/** What a completed run found: the spec's `result`, never the raw secret. */
export interface RunResult {
  readonly email_received_at: string;
  readonly extraction_type: string;
  readonly has_secret: true;
  readonly redacted_value: string;
  readonly secret_retrieval_available: boolean;
  readonly delivery_time_ms: number;
  readonly confidence: number;
}

/** A reliability run as stored: also a leased job (`open`, `due_at`, `lease_owner`). */
export interface RunRecord {
  readonly id: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly flow_type: FlowType;
  readonly status: RunStatus;
  readonly identity_id: string;
  readonly email: string;
  readonly target_url: string;
  readonly timeout_seconds: number;
  readonly request: RunRequest | null;
  readonly created_at: string;
  readonly updated_at: string;
  /** Whether the run still needs the job: to be triggered, or to time out. */
  readonly open: boolean;
  /** When the job next has something to do ('' once closed). */
  readonly due_at: string;
  readonly lease_owner: string | null;
  /** Set in the write that claims the trigger, before the request: a run is triggered at most once. */
  readonly trigger_started_at: string | null;
  readonly triggered_at: string | null;
  readonly target_status: number | null;
  readonly deadline_at: string | null;
  readonly email_received_at: string | null;
  readonly message_id: string | null;
  readonly extraction_id: string | null;
  readonly completed_at: string | null;
  readonly failure_reason: string | null;
  readonly result: RunResult | null;
}

/** A run as the API shows it: no raw secret, no header values. */
export const toRun = (r: RunRecord) => ({
  id: r.id,
  flow_type: r.flow_type,
  status: r.status,
  identity_id: r.identity_id,
  target_url: r.target_url,
  timeout_seconds: r.timeout_seconds,
  request: r.request === null ? null : { header_names: Object.keys(r.request.headers), body_template: r.request.body_template !== null, content_type: r.request.content_type },
  created_at: r.created_at,
  triggered_at: r.triggered_at,
  target_status: r.target_status,
  deadline_at: r.deadline_at,
  email_received_at: r.email_received_at,
  completed_at: r.completed_at,
  failure_reason: r.failure_reason,
  result: r.result,
});

export type Run = ReturnType<typeof toRun>;

/** The fields of a run that end it: closed for the job, with its final status. */
export const closed = (status: RunStatus, now: string, extra: Partial<RunRecord> = {}): Partial<RunRecord> => ({
  status,
  open: false,
  due_at: '',
  lease_owner: null,
  updated_at: now,
  ...(status === 'completed' ? { completed_at: now } : {}),
  ...extra,
});
