import type { DnsCheck } from '../domain/errors.js';

export type DomainStatus = 'pending_verification' | 'verified';
export type RecordStatus = 'pending' | 'verified';

/** A custom domain as stored. */
export interface DomainRecord {
  readonly id: string;
  /** Normalised (hostname.ts): lower case, punycode, no trailing dot. */
  readonly domain: string;
  readonly org_id: string;
  readonly project_id: string;
  readonly status: DomainStatus;
  /** The value the TXT record must carry after `service-verify=`: random, per domain. */
  readonly token: string;
  readonly mx_status: RecordStatus;
  readonly txt_status: RecordStatus;
  readonly created_at: string;
  readonly updated_at: string;
  readonly verified_at: string | null;
  /** When verify last asked DNS, and what it found. */
  readonly checked_at: string | null;
  readonly last_check: readonly DnsCheck[] | null;
}

/** The claim that makes a hostname registered once across all tenants (id = the hostname). */
export interface DomainNameRecord {
  readonly id: string;
  readonly domain_id: string;
}

export interface DnsRecordView {
  readonly type: 'MX' | 'TXT';
  readonly host: string;
  readonly value: string;
  readonly status: RecordStatus;
}

/** The name the TXT record goes at. */
export const txtHost = (domain: string): string => `_service-verify.${domain}`;
export const txtValue = (token: string): string => `service-verify=${token}`;
export const mxValue = (mxHost: string): string => `10 ${mxHost}`;

/** The two records a domain needs, with where each stands. */
export const dnsRecordsOf = (record: DomainRecord, mxHost: string): DnsRecordView[] => [
  { type: 'MX', host: record.domain, value: mxValue(mxHost), status: record.mx_status },
  { type: 'TXT', host: txtHost(record.domain), value: txtValue(record.token), status: record.txt_status },
];

/** A domain in lists. */
export const domainSummaryOf = (record: DomainRecord) => ({
  id: record.id,
  domain: record.domain,
  status: record.status,
  created_at: record.created_at,
  verified_at: record.verified_at,
});

/** A domain with its records: what register, get and verify answer. */
export const domainViewOf = (record: DomainRecord, mxHost: string) => ({
  ...domainSummaryOf(record),
  dns_records: dnsRecordsOf(record, mxHost),
  checked_at: record.checked_at,
});

export type DomainSummary = ReturnType<typeof domainSummaryOf>;
export type DomainView = ReturnType<typeof domainViewOf>;
