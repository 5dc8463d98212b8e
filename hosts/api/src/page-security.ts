import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/** What no page of the host may be: framed by another site, or sniffed as another type. */
const BASELINE = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "frame-ancestors 'none'",
} as const;

export interface PageAllowances {
  /** The page carries its script inline (the sign-in page). */
  readonly inlineScript?: boolean;
  /** The page carries its styles inline (the sign-in and sandbox pages). */
  readonly inlineStyle?: boolean;
}

/**
 * The headers of every HTML page the host serves (web app, sign-in page, sandbox checkout and
 * portal): a policy that allows the page's own origin only and no framing (clickjacking: a page
 * with a "Pay" or "Sign in" button must not be overlaid by another site), no type sniffing, no
 * referrer (a sign-in or checkout URL carries a token). One place, so no page forgets one.
 */
export const pageSecurityHeaders = (allow: PageAllowances = {}): Record<string, string> => ({
  ...BASELINE,
  'Content-Security-Policy': [
    "default-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(allow.inlineScript === true ? ["script-src 'unsafe-inline'"] : []),
    ...(allow.inlineStyle === true ? ["style-src 'unsafe-inline'"] : []),
  ].join('; '),
  'Referrer-Policy': 'no-referrer',
});

/**
 * The baseline on every answer of the public port, before any route runs: whatever answers
 * with HTML there (a page that forgot {@link pageSecurityHeaders}, Express's own error page)
 * still cannot be framed or sniffed. Pages replace the policy with their fuller one.
 */
export const securityBaseline = (): RequestHandler => (_req, res, next) => {
  setBaseline(res);
  next();
};

/** Puts the baseline on an answer: through {@link securityBaseline}, or straight on API answers. */
export const setBaseline = (res: ServerResponse): void => {
  for (const name in BASELINE) res.setHeader(name, BASELINE[name as keyof typeof BASELINE]);
};
