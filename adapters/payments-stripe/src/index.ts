export {
  createStripePaymentProvider,
  STRIPE_PAYMENT_PROVIDER_DEFAULTS,
  type StripePaymentProviderOptions,
} from './stripe-payment-provider.js';
