import { invalidRequest, type DomainError } from '@ephemail/core';
import * as E from 'fp-ts/lib/Either.js';
import type { z } from 'zod';

/** Parses one part of a request with its schema; failures become `invalid_request` with issues. */
export const parseWith = <T>(schema: z.ZodType<T>, value: unknown, where: string): E.Either<DomainError, T> => {
  const parsed = schema.safeParse(value);
  if (parsed.success) return E.right(parsed.data);
  const issues = parsed.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  return E.left(invalidRequest(`The request ${where} is invalid.`, issues));
};
