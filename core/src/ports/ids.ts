/**
 * Randomness as a port. Identifiers are `<prefix>_` followed by at least 22 URL-safe characters
 * from a cryptographic source; never sequential.
 */
export interface Ids {
  /** A new identifier such as `ident_3hK9...`; `prefix` is given without the underscore. */
  next(prefix: string): string;
  /** `length` characters of [A-Za-z0-9] from a cryptographic source, for secrets and local parts. */
  secret(length: number): string;
}
