/** Who is calling, resolved from the credential before any handler runs. */
export interface Principal {
  readonly orgId: string;
  readonly projectId: string;
  readonly scopes: readonly string[];
  readonly credential: {
    readonly kind: 'api_key' | 'access_token' | 'consumer_session';
    readonly id: string;
    readonly keyId: string;
    /** When the credential stops working (access tokens only). */
    readonly expiresAt?: string;
  };
}
