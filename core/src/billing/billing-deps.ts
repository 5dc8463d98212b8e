import type { CoreDeps } from '../deps.js';
import type { InvoiceRenderer, PaymentProvider } from './ports.js';

export interface BillingDeps extends CoreDeps {
  readonly billing: {
    readonly provider: PaymentProvider;
    readonly renderer: InvoiceRenderer;
    /** Whether a real provider was given (else `provider` refuses everything). */
    readonly configured: boolean;
  };
}
