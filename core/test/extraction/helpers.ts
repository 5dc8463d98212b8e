import type { ParsedMessage } from '../../src/index.js';

let counter = 0;

/** A ParsedMessage with sensible defaults; each call gets its own message id. */
export const message = (over: Partial<ParsedMessage> = {}): ParsedMessage => {
  counter += 1;
  return {
    envelopeFrom: 'bounce@mail.example.com',
    from: { address: 'no-reply@example.com', name: 'Example' },
    to: [{ address: `user${counter}@inbox.test`, name: '' }],
    subject: '',
    date: null,
    messageId: `<m${counter}.${Math.random().toString(36).slice(2)}@example.com>`,
    headers: {},
    text: '',
    html: '',
    attachments: [],
    ...over,
  };
};
