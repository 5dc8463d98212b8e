import type { ParseFailure } from '../extraction/message-parser.js';
import type { Extraction, SecretType } from '../extraction/types.js';
import { REPORT_THRESHOLD } from '../mail/extraction-record.js';
import type { TransportOutcome } from '../webhooks/ports.js';
import type { CONFIDENCE_BANDS, PARSE_FAILURE_REASONS, WEBHOOK_ATTEMPT_OUTCOMES } from './catalogue.js';

type Band = (typeof CONFIDENCE_BANDS)[number];

/** Lower bounds of the bands above `unreported`, highest first. */
const BANDS: readonly (readonly [number, Band])[] = [
  [0.9, 'high'],
  [0.7, 'medium'],
  [REPORT_THRESHOLD, 'low'],
];

const bandOf = (confidence: number): Band => BANDS.find(([floor]) => confidence >= floor)?.[1] ?? 'unreported';

// Every series string made once, so counting an extraction builds no string.
const SERIES: Readonly<Record<SecretType, Readonly<Record<Band, string>>>> = {
  otp: { unreported: 'otp,unreported', low: 'otp,low', medium: 'otp,medium', high: 'otp,high' },
  magic_link: { unreported: 'magic_link,unreported', low: 'magic_link,low', medium: 'magic_link,medium', high: 'magic_link,high' },
};

/** The `ephemail_extractions_total` series of an extraction: its best candidate's type and band. */
export const extractionSeries = (extraction: Extraction): string =>
  extraction.top === undefined ? 'none,none' : SERIES[extraction.top.type][bandOf(extraction.top.confidence)];

const PARSE_REASONS: Readonly<Record<ParseFailure['_tag'], (typeof PARSE_FAILURE_REASONS)[number]>> = {
  MessageTooLarge: 'too_large',
  TooManyParts: 'too_many_parts',
  ParseBudgetExceeded: 'over_budget',
  MalformedMessage: 'malformed',
};

/** The `ephemail_parse_failures_total` series of a parse failure. */
export const parseFailureSeries = (failure: ParseFailure): string => PARSE_REASONS[failure._tag];

/** The `ephemail_webhook_attempts_total` series of what an attempt obtained. */
export const webhookAttemptSeries = (outcome: TransportOutcome): (typeof WEBHOOK_ATTEMPT_OUTCOMES)[number] => {
  if (!('status' in outcome)) return 'no_response';
  if (outcome.status >= 200 && outcome.status <= 299) return 'success';
  if (outcome.status >= 300 && outcome.status <= 399) return 'redirect';
  if (outcome.status >= 400 && outcome.status <= 499) return 'client_error';
  return 'server_error';
};
