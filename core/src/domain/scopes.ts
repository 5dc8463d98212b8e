/** Every scope a credential can hold: the spec's table plus those of decisions.md. */
export const SCOPES = [
  'identities:read',
  'identities:write',
  'webhooks:read',
  'webhooks:write',
  'reliability:write',
  'domains:read',
  'domains:write',
  'secrets:read',
  'billing:read',
  'billing:write',
  'trials:write',
  'marketplace:read',
  'marketplace:deploy',
  'exports:read',
  'exports:write',
  'events:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** The scopes of `required` that `granted` does not include. */
export const missingScopes = (granted: readonly string[], required: readonly Scope[]): Scope[] =>
  required.filter((scope) => !granted.includes(scope));
