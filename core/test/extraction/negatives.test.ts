import test from 'ava';
import { extract } from '../../src/index.js';
import { message } from './helpers.js';

// Mail that carries no secret, though it holds numbers or links shaped like one. Each must stay
// below confidence 0.5: these are the false positives leave-one-product-out evaluation found.
const cases: Record<string, Parameters<typeof message>[0]> = {
  'an order confirmation with order, invoice and ticket numbers': {
    subject: 'Your order has shipped',
    text: 'Thanks for your purchase.\n\nOrder number: 88412093\nInvoice 731004 is attached.\nTicket 48213 was closed.\n',
  },
  'a coupon and a promo code': {
    subject: 'A gift for you',
    text: 'Use promo code SPRING24 at checkout, or coupon code 4471 in the shop.\n',
  },
  'a license key': {
    subject: 'Your self-hosted license',
    text: 'Your purchase is confirmed.\n\nLicense key: RLYV4-2XTK-Z30Q-B6OY\n\nActivate it on your instance.\n',
  },
  'a password-changed notice': {
    subject: 'Your password was changed',
    text: 'The password of your account was changed on 2025-03-14 at 10:42.\nIf this was not you, contact support.\n',
  },
  'a new sign-in notice': {
    subject: 'New sign-in from Firefox on Linux',
    text: 'A new sign-in to your account from 203.0.113.42 (Berlin) at 10:42.\nIf this was you, no action is needed.\n',
  },
  'a comment notification with a link to the thread': {
    subject: 'Tereza commented on Book club – June',
    html: '<p>Tereza commented on Book club – June.</p><a href="https://polls.example.com/poll/civVchnsvXxJCtYdLw8iL" style="background:#6366f1;border-radius:6px">View on polls.example.com</a>',
  },
  'an undo link after an e-mail change': {
    subject: 'Your e-mail address has changed',
    text: 'Your e-mail address was changed. Not you? Undo it: https://money.example.net/profile/undo-email-change/4f129ab3-12b0-4212-9c2e-8a1f3b5d7e90\n',
  },
};

for (const [name, over] of Object.entries(cases)) {
  test(`extract: ${name} yields no confident secret`, (t) => {
    const found = extract(message(over)).top;
    t.true((found?.confidence ?? 0) < 0.5, `${found?.value} at ${found?.confidence}`);
  });
}
