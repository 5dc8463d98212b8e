import type { AuthenticationResults, AuthVerdict } from './ports.js';

/** A check's result as the API shows it: a verdict, or `not_checked` when checks are off. */
export type ShownVerdict = AuthVerdict | 'not_checked';

/** SPF, DKIM and DMARC of a message as the API shows them: always all three, each with a `result`. */
export interface AuthenticationView {
  /** Whether the checks ran for this message (false: every `result` is `not_checked`). */
  readonly checked: boolean;
  readonly spf: { readonly result: ShownVerdict; readonly domain: string | null };
  readonly dkim: {
    readonly result: ShownVerdict;
    readonly aligned: boolean;
    readonly signatures: AuthenticationResults['dkim'];
  };
  readonly dmarc: { readonly result: ShownVerdict; readonly domain: string | null; readonly policy: string | null };
}

const NOT_CHECKED: AuthenticationView = {
  checked: false,
  spf: { result: 'not_checked', domain: null },
  dkim: { result: 'not_checked', aligned: false, signatures: [] },
  dmarc: { result: 'not_checked', domain: null, policy: null },
};

/**
 * DKIM's one result for the message (RFC 8601 reports one per signature): `pass` when any
 * signature passes, else the first signature's, and `none` for a message without a signature.
 */
const dkimResult = (signatures: AuthenticationResults['dkim']): AuthVerdict =>
  signatures.some((s) => s.result === 'pass') ? 'pass' : (signatures[0]?.result ?? 'none');

/**
 * The stored results (`null` when the checks were off as the message came in) as the API shows
 * them, so a client can tell "not checked" from "checked and absent".
 */
export const toAuthenticationView = (stored: AuthenticationResults | null): AuthenticationView =>
  stored === null
    ? NOT_CHECKED
    : {
        checked: true,
        spf: stored.spf,
        dkim: { result: dkimResult(stored.dkim), aligned: stored.dkimAligned, signatures: stored.dkim },
        dmarc: stored.dmarc,
      };
