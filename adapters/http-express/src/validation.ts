import { invalidRequest, type DomainError } from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import type { z } from 'zod';

/** One problem with a request, as `details.issues` lists it. */
export interface RequestIssue {
  readonly path: string;
  readonly message: string;
}

/** The value at `path` inside `value`, or undefined when some step of it is absent. */
const valueAt = (value: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined), value);

/**
 * A field the request left out gets "<field> is required" instead of zod's "expected string,
 * received undefined", which reads as if the caller had sent something; every other issue keeps
 * the schema's own message.
 */
const messageOf = (issue: z.core.$ZodIssue, value: unknown, where: string): string => {
  if (issue.code !== 'invalid_type' || valueAt(value, issue.path) !== undefined) return issue.message;
  return `${issue.path.length === 0 ? where : issue.path.map(String).join('.')} is required`;
};

/** The issues of a failed parse of one part of a request (`body`, `query`), paths prefixed with it. */
export const issuesOf = (error: z.ZodError, value: unknown, where: string): RequestIssue[] =>
  error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: messageOf(issue, value, where) }));

/** The top-level message of an invalid request: what is wrong, the first few issues named. */
export const invalidMessage = (issues: readonly RequestIssue[], subject = 'The request'): string => {
  const named = issues.slice(0, 3).map((issue) => (issue.message.endsWith(' is required') ? issue.message : `${issue.path}: ${issue.message}`));
  const more = issues.length > 3 ? `; and ${issues.length - 3} more (details.issues)` : '';
  return named.length === 0 ? `${subject} is invalid.` : `${subject} is invalid: ${named.join('; ')}${more}.`;
};

/** Parses one part of a request with its schema; failures become `invalid_request` with issues. */
export const parseWith = <T>(schema: z.ZodType<T>, value: unknown, where: string): E.Either<DomainError, T> => {
  const parsed = schema.safeParse(value);
  if (parsed.success) return E.right(parsed.data);
  const issues = issuesOf(parsed.error, value, where);
  return E.left(invalidRequest(invalidMessage(issues, `The request ${where}`), issues));
};
