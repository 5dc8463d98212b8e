/** What one delivery attempt obtained: the receiver's HTTP status, or why there is none. */
export type TransportOutcome = { readonly status: number } | { readonly error: string };

/**
 * Sends webhook deliveries. The host passes an implementation that guards user-supplied URLs
 * (the http-outbound adapter); tests pass fakes.
 */
export interface WebhookTransport {
  /**
   * POSTs `body` (already serialised; it is the exact signed byte string) to `url` with `headers`.
   * Answers `{ status }` as soon as the receiver's status line arrived, whatever the status
   * (a 3xx is a status: redirects are never followed). Answers `{ error }` when no status was
   * obtained: a refused destination, a DNS or connection failure, or `timeoutMs` elapsed (the
   * whole attempt, DNS to status, stays within it). Rejects only on a programming error.
   */
  post(
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
    options: { readonly timeoutMs: number },
  ): Promise<TransportOutcome>;
}

/** Whether a user-supplied URL may be stored as a destination. */
export type UrlVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * The static checks of a destination URL made when an endpoint is created or changed (scheme,
 * credentials in the URL, host form, address literals). No DNS: names are resolved and checked
 * again at every attempt by the transport.
 */
export interface UrlGuard {
  /**
   * Answers whether `url` is acceptable. `allowHttpLoopback` admits plain `http://` to a
   * loopback host (development mode); otherwise only `https://` is. Never rejects.
   */
  check(url: string, options: { readonly allowHttpLoopback: boolean }): Promise<UrlVerdict>;
}
