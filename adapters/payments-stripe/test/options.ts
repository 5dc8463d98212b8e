import type { StripePaymentProviderOptions } from '../src/index.js';

export const WEBHOOK_SECRET = 'whsec_stand_in_secret';

export const OPTIONS: StripePaymentProviderOptions = {
  prices: { starter: 'price_starter', growth: 'price_growth', pro: 'price_pro', enterprise: 'price_enterprise' },
  webhookSecret: WEBHOOK_SECRET,
  successUrl: 'https://app.ephemail.test/billing/done?session={CHECKOUT_SESSION_ID}',
  cancelUrl: 'https://app.ephemail.test/billing/canceled',
  portalReturnUrl: 'https://app.ephemail.test/billing',
};
