/** Who is calling, resolved from the credential before any handler runs. */
export interface Principal {
  readonly orgId: string;
  readonly projectId: string;
  readonly scopes: readonly string[];
  /**
   * Every project the credential covers (a key's projects; a token's one), so a caller that
   * sent no tenant headers can be told where it may act. Absent on consumer sessions.
   */
  readonly projects?: readonly string[];
  readonly credential: {
    readonly kind: 'api_key' | 'access_token' | 'consumer_session';
    readonly id: string;
    readonly keyId: string;
    /** When the credential stops working (access tokens only). */
    readonly expiresAt?: string;
  };
}
